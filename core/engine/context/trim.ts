import type { Message } from '../../types/message.js';
import { fitsBudget, messageChars, type ContextBudget, type RequestSize } from './measure.js';
import { LAST_USER_QUERY_EXTRA_TOKENS, lastUserQueryChars } from './last-user-query.js';
import { REPLY_PRIMING_TOKENS, type TokenCounter } from './token-estimate.js';

/** What stage 1 works on: the composed system prompt (without `Last user query`) and the conversation. */
export interface TrimInput {
  system: string;
  /** Earlier turns, oldest first. */
  history: readonly Message[];
  /** Index of the first `history` message no summary stands for (default 0); earlier ones are never sent. */
  historyStart?: number;
  /** The current turn: its user message first, then the tool chains so far. */
  turn: readonly Message[];
  /** The summary message that stands for older history; kept when it fits after the recent messages. */
  summary?: Message;
  budget: ContextBudget;
  minRecentMessages: number;
  /** Needed when `budget.maxTokens` is set. */
  counter?: TokenCounter;
}

/** The outcome of stage 1. */
export interface TrimResult {
  /** The messages to send after the system message: the summary (if kept), then a contiguous newest part. */
  messages: Message[];
  /** The current user message's text when it is not among `messages`. */
  lastUserQuery?: string;
  /** How many `history` messages from `historyStart` on are not sent. */
  droppedHistory: number;
  /** How many `turn` messages are not sent (the user message moved to `lastUserQuery` not counted). */
  droppedTurn: number;
  summaryKept: boolean;
  /** Size of the request as sent: system (with `Last user query`) + messages. */
  size: RequestSize;
  /** True when even the messages that must stay exceed the budget. */
  overBudget: boolean;
}

/** First index of the unit that ends at `end`: a tool chain (assistant + its `tool` results) or one message. */
export function unitStart(at: (index: number) => Message, end: number): number {
  let start = end;
  if (at(start).role !== 'tool') return start;
  while (start > 0 && at(start - 1).role === 'tool') start--;
  if (start > 0 && at(start - 1).role === 'assistant') start--;
  return start;
}

/**
 * Stage 1: keep the newest messages that fit, dropping the oldest first. At least `minRecentMessages`
 * (and always the newest unit) stay; a tool chain stays or goes whole. The turn's user message is never lost:
 * unless it is among the newest, it is paid for first; if the newer messages leave the request over budget
 * (pushed out by a long tool chain) it moves to `lastUserQuery`, where it costs about the same.
 * Only the messages looked at are measured, so the cost follows what is kept, not the history size.
 */
export function trimToBudget(input: TrimInput): TrimResult {
  const { history, turn, budget, counter } = input;
  // History and turn are read in place, one virtual list: copying a long history would cost more than the scan.
  const offset = Math.min(input.historyStart ?? 0, history.length);
  const historyLength = history.length - offset;
  const total = historyLength + turn.length;
  const at = (i: number): Message =>
    (i < historyLength ? history[offset + i] : turn[i - historyLength]) as Message;
  const userIndex = turn[0]?.role === 'user' ? historyLength : -1;
  const user = turn[0];
  const countTokens = budget.maxTokens !== undefined && counter !== undefined;
  const tokensOf = (m: Message): number => (countTokens && counter ? counter.message(m) : 0);

  let chars = input.system.length;
  let tokens = countTokens && counter ? REPLY_PRIMING_TOKENS + counter.system(input.system) : 0;
  const add = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      const m = at(i);
      chars += messageChars(m);
      tokens += tokensOf(m);
    }
  };
  const fits = (extraChars: number, extraTokens: number): boolean =>
    fitsBudget({ chars: chars + extraChars, tokens: countTokens ? tokens + extraTokens : undefined }, budget);

  // The newest units that must stay, whatever their size.
  let start = total;
  while (start > 0 && (start === total || total - start < input.minRecentMessages)) {
    const s = unitStart(at, start - 1);
    add(s, start);
    start = s;
  }

  // The user message is reserved at its `Last user query` cost until the kept part reaches it.
  let userReserved = false;
  if (user && userIndex >= 0 && start > userIndex) {
    chars += lastUserQueryChars(user.content);
    tokens += tokensOf(user) + LAST_USER_QUERY_EXTRA_TOKENS;
    userReserved = true;
  }

  let summaryKept = false;
  if (input.summary) {
    const summaryChars = messageChars(input.summary);
    const summaryTokens = tokensOf(input.summary);
    if (fits(summaryChars, summaryTokens)) {
      chars += summaryChars;
      tokens += summaryTokens;
      summaryKept = true;
    }
  }

  while (start > 0) {
    const s = unitStart(at, start - 1);
    if (userReserved && s === userIndex) {
      // Already paid for; it goes back into the messages only if the request fits, else the chain has pushed it out.
      if (!fits(0, 0)) break;
      if (user) {
        chars -= lastUserQueryChars(user.content);
        tokens -= LAST_USER_QUERY_EXTRA_TOKENS + tokensOf(user);
      }
      userReserved = false;
      add(s, start);
      start = s;
      continue;
    }
    let unitChars = 0;
    let unitTokens = 0;
    for (let i = s; i < start; i++) unitChars += messageChars(at(i));
    if (!fits(unitChars, 0)) break;
    if (countTokens) {
      for (let i = s; i < start; i++) unitTokens += tokensOf(at(i));
      if (!fits(unitChars, unitTokens)) break;
    }
    chars += unitChars;
    tokens += unitTokens;
    start = s;
  }

  const kept =
    start >= historyLength ? turn.slice(start - historyLength) : [...history.slice(offset + start), ...turn];
  const size: RequestSize = countTokens ? { chars, tokens } : { chars };
  return {
    messages: summaryKept && input.summary ? [input.summary, ...kept] : kept,
    lastUserQuery: userReserved ? user?.content : undefined,
    droppedHistory: Math.min(start, historyLength),
    droppedTurn: Math.max(0, start - historyLength - (userReserved ? 1 : 0)),
    summaryKept,
    size,
    overBudget: !fitsBudget(size, budget),
  };
}
