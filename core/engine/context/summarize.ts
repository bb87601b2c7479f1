import type { Message } from '../../types/message.js';
import { messageChars } from './measure.js';

/** The instruction the summary model gets, verbatim. */
export const SUMMARY_PROMPT =
  'Summarise the following conversation, keeping only key facts (names, files, numbers, decisions), in at most half its length, as lines starting with `- `.';

/** The start of the message that stands for summarised history. */
export const SUMMARY_MESSAGE_PREFIX = 'Summary of earlier conversation: ';

/** Writes a summary of `text` (the engine calls `summaryModel` with SUMMARY_PROMPT). Rejects on failure. */
export type Summariser = (text: string, signal: AbortSignal) => Promise<string>;

/** A summary that stands for the first `covers` messages of the session's history; kept in the session file. */
export interface ContextSummary {
  text: string;
  covers: number;
}

/** The request the engine sends to the summary model: SUMMARY_PROMPT as system, the conversation as user. */
export function summaryRequestMessages(text: string): Message[] {
  return [
    { role: 'system', content: SUMMARY_PROMPT },
    { role: 'user', content: text },
  ];
}

const summaryMessages = new WeakMap<ContextSummary, Message>();

/**
 * The message sent in place of the summarised history: role `system`, since it is context, not something the
 * user said (two user messages in a row would read as a question). One object per summary, so caches hold.
 */
export function summaryMessage(summary: ContextSummary): Message {
  let message = summaryMessages.get(summary);
  if (!message) {
    message = { role: 'system', content: SUMMARY_MESSAGE_PREFIX + summary.text };
    summaryMessages.set(summary, message);
  }
  return message;
}

/** One message as a transcript line for the summary model. */
function renderMessage(message: Message): string {
  switch (message.role) {
    case 'user':
      return `User: ${message.content}`;
    case 'assistant': {
      const calls =
        message.toolCalls?.map((c) => `\nAssistant called ${c.name} ${JSON.stringify(c.arguments)}`) ?? [];
      return `Assistant: ${message.content}${calls.join('')}`;
    }
    case 'tool':
      return `Tool result${message.toolName ? ` (${message.toolName})` : ''}: ${message.content}`;
    case 'system':
      return message.content;
  }
}

/** What goes to the summariser, and the size of what the summary would replace. */
export interface SummaryInput {
  text: string;
  /** Characters of the messages (and earlier summary) the new summary would stand for. */
  replacedChars: number;
}

/**
 * The transcript to summarise: the earlier summary first (dense, so it is kept whole), then the newest dropped
 * messages that fit in `maxChars` (the summary model is no bigger than the chat model; older ones are dropped).
 */
export function buildSummaryInput(
  previous: ContextSummary | undefined,
  dropped: readonly Message[],
  maxChars: number,
): SummaryInput {
  const parts: string[] = [];
  let used = 0;
  let replacedChars = 0;
  if (previous) {
    const message = summaryMessage(previous);
    parts.push(message.content);
    used += message.content.length;
    replacedChars += messageChars(message);
  }
  const lines: string[] = [];
  for (let i = dropped.length - 1; i >= 0; i--) {
    const message = dropped[i] as Message;
    const line = renderMessage(message);
    if (used + line.length > maxChars && lines.length > 0) break;
    lines.push(line);
    used += line.length + 2;
    replacedChars += messageChars(message);
  }
  lines.reverse();
  return { text: [...parts, ...lines].join('\n\n'), replacedChars };
}

/** The outcome of one summary attempt. */
export type SummaryOutcome =
  { ok: true; text: string } | { ok: false; reason: 'failed' | 'longer' | 'empty'; warning: string };

/**
 * Stage 2: asks the summariser once; accepts its answer only if it is non-empty and its message is
 * shorter than what it replaces. A failure is an outcome, not a throw, except when `signal` was aborted.
 */
export async function trySummarise(
  summarise: Summariser,
  input: SummaryInput,
  signal: AbortSignal,
): Promise<SummaryOutcome> {
  let text: string;
  try {
    text = (await summarise(input.text, signal)).trim();
  } catch (error) {
    if (signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: 'failed',
      warning: `Context summary failed (${why}); older messages were dropped instead.`,
    };
  }
  if (text === '') {
    return {
      ok: false,
      reason: 'empty',
      warning: 'Context summary was empty; older messages were dropped instead.',
    };
  }
  const length = SUMMARY_MESSAGE_PREFIX.length + text.length;
  if (length >= input.replacedChars) {
    return {
      ok: false,
      reason: 'longer',
      warning: `Context summary was not shorter than what it replaces (${length} >= ${input.replacedChars} characters); older messages were dropped instead.`,
    };
  }
  return { ok: true, text };
}
