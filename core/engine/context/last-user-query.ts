/** The line put in the system prompt when the turn's user message is not in the request. */
export const LAST_USER_QUERY_PREFIX = 'Last user query: ';

/** `Last user query: <text>`, the system-prompt part the caller adds (between the date line and FUNCTIONS). */
export function lastUserQueryLine(text: string): string {
  return LAST_USER_QUERY_PREFIX + text;
}

/** Characters the line adds to the system prompt: the blank line between parts, the prefix, the text. */
export function lastUserQueryChars(text: string): number {
  return 2 + LAST_USER_QUERY_PREFIX.length + text.length;
}

/** Tokens of the line relative to the same text sent as a message: the prefix (~4) + separator replace the ~4 of message overhead. */
export const LAST_USER_QUERY_EXTRA_TOKENS = 2;
