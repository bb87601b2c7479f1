import type { Message } from '../../types/message.js';
import { imageChars } from '../../images/image-limits.js';
import { REPLY_PRIMING_TOKENS, type TokenCounter } from './token-estimate.js';

/** The size of a request: characters always, estimated tokens when a counter was given. */
export interface RequestSize {
  chars: number;
  tokens?: number;
}

/** The two limits of a request: `contextMaxChars`, and the model's `contextWindow` in tokens when known. */
export interface ContextBudget {
  maxChars: number;
  maxTokens?: number;
}

const toolCallChars = new WeakMap<Message, number>();

/**
 * Characters of one message as the budget counts them: its content, its native tool calls as JSON, and its
 * pictures at their token cost.
 */
export function messageChars(message: Message): number {
  if ((message.role === 'user' || message.role === 'tool') && message.images?.length)
    return message.images.reduce((sum, image) => sum + imageChars(image), message.content.length);
  if (message.role !== 'assistant' || !message.toolCalls?.length) return message.content.length;
  let calls = toolCallChars.get(message);
  if (calls === undefined) {
    calls = JSON.stringify(message.toolCalls).length;
    toolCallChars.set(message, calls);
  }
  return message.content.length + calls;
}

/** Measures system + messages. Tokens only when a counter is given; they use the counter's cache. */
export function measureRequest(
  system: string,
  messages: readonly Message[],
  counter?: TokenCounter,
): RequestSize {
  let chars = system.length;
  for (const message of messages) chars += messageChars(message);
  if (!counter) return { chars };
  let tokens = REPLY_PRIMING_TOKENS + counter.system(system);
  for (const message of messages) tokens += counter.message(message);
  return { chars, tokens };
}

/** How full the request is: the larger of the two fractions (1 = exactly at the limit). */
export function budgetRatio(size: RequestSize, budget: ContextBudget): number {
  const byChars = size.chars / budget.maxChars;
  if (budget.maxTokens === undefined || size.tokens === undefined) return byChars;
  return Math.max(byChars, size.tokens / budget.maxTokens);
}

/** Whether a size is within both limits. */
export function fitsBudget(size: RequestSize, budget: ContextBudget): boolean {
  if (size.chars > budget.maxChars) return false;
  return budget.maxTokens === undefined || size.tokens === undefined || size.tokens <= budget.maxTokens;
}
