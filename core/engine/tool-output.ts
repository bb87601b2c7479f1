/** Cuts a tool result to `max` characters with a note saying how much was cut. */
export function cutToolOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n... (truncated ${text.length - max} characters)`;
}
