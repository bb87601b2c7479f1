/** Cuts a tool result to `max` characters with a note saying how much was cut. */
export function cutToolOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n... (truncated ${text.length - max} characters)`;
}

/** The first line of a text, at most `max` characters, for one-line summaries. */
export function firstLine(text: string, max = 200): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
