import type { Message } from '../../types/message.js';
import { messageChars, type ContextBudget } from './measure.js';
import type { TokenCounter } from './token-estimate.js';

/** The share of the budget an earlier message larger than the whole budget is cut to: room stays for the rest. */
export const OVERSIZED_SHARE = 0.25;

/** Each message's cut copy, made once: the same object from call to call. */
const cuts = new WeakMap<Message, { budget: string; cut: Message }>();

/**
 * Earlier messages as a later turn sends them: one larger than the whole budget (a 200 KB paste) was sent whole in
 * its own turn, and from then on goes as its start and a marker saying how much was left out, so it does not push
 * every recent message out of the request. The same array comes back when nothing is that large.
 */
export function cutOversized(
  history: readonly Message[],
  budget: ContextBudget,
  counter?: TokenCounter,
): { history: readonly Message[]; cut: number } {
  let copy: Message[] | undefined;
  let cut = 0;
  for (let i = 0; i < history.length; i++) {
    const message = history[i] as Message;
    const keep = keptChars(message, budget, counter);
    if (keep === undefined) continue;
    copy ??= [...history];
    copy[i] = cutMessage(message, keep, budget);
    cut += 1;
  }
  return { history: copy ?? history, cut };
}

/** How many characters of a message's text to keep, or undefined when it fits the budget whole. */
function keptChars(message: Message, budget: ContextBudget, counter?: TokenCounter): number | undefined {
  if (message.role === 'tool' || (message.role === 'assistant' && message.toolCalls?.length))
    return undefined;
  const chars = messageChars(message);
  const overChars = chars > budget.maxChars;
  // Tokens only for a message that is large in characters too: counting every message would cost each call.
  const tokens =
    budget.maxTokens !== undefined && counter && chars > budget.maxTokens ? counter.message(message) : 0;
  const overTokens = budget.maxTokens !== undefined && tokens > budget.maxTokens;
  if (!overChars && !overTokens) return undefined;
  let keep = Math.floor(budget.maxChars * OVERSIZED_SHARE);
  if (overTokens && budget.maxTokens !== undefined)
    keep = Math.min(
      keep,
      Math.floor(((budget.maxTokens * OVERSIZED_SHARE) / tokens) * message.content.length),
    );
  return Math.max(0, keep);
}

function cutMessage(message: Message, keep: number, budget: ContextBudget): Message {
  const key = `${budget.maxChars}/${budget.maxTokens ?? ''}`;
  const cached = cuts.get(message);
  if (cached?.budget === key) return cached.cut;
  const left = message.content.length - keep;
  const content = `${message.content.slice(0, keep)}\n\n[… ${left.toLocaleString('en-US')} more characters of this message were left out to fit the context]`;
  const cut: Message = { ...message, content };
  cuts.set(message, { budget: key, cut });
  return cut;
}

/** What the user is told, once, when earlier messages start to go cut. */
export function cutNotice(count: number): string {
  return count === 1
    ? 'An earlier message larger than the whole context budget is sent cut to its start from now on, so recent messages stay in the context.'
    : `${count} earlier messages larger than the whole context budget are sent cut to their start from now on, so recent messages stay in the context.`;
}
