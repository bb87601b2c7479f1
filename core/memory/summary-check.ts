/**
 * The least a memory summary must keep, as a share of the original's characters. The seed asks for at most half;
 * a summary under a sixth has dropped most of the facts (a 400-line memory "summarised" into one line is 0.6%),
 * which no compression of plain facts does, so it is taken for a collapse and refused.
 */
export const MEMORY_SUMMARY_FLOOR = 1 / 6;

/** The summary model declining, or reporting an error, in the words models use (English and Korean). */
const REFUSAL =
  /\b(?:I can(?:no|['’])t|I am unable|I['’]m unable|I['’]m sorry|I apologi[sz]e|as an AI|unable to (?:help|assist|comply))\b|죄송|할 수 없|도와드릴 수 없|^-?\s*(?:error|오류)\b/im;

/**
 * Whether a summary of `original` may replace it: every line a `- …` line, at most half of it, at least
 * MEMORY_SUMMARY_FLOOR of it, and neither a refusal nor an error. Undefined when it may; else why not, in words.
 */
export function memorySummaryProblem(original: string, summary: string): string | undefined {
  const lines = summary.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (!lines.length) return 'it is empty';
  if (REFUSAL.test(summary)) return 'it is a refusal or an error, not a summary';
  const loose = lines.find((line) => !/^- \S/.test(line));
  if (loose !== undefined) return `not every line is a "- …" line (${JSON.stringify(loose.slice(0, 40))})`;
  if (summary.length > original.length / 2)
    return `it is not at most half of the memory (${summary.length} of ${original.length} characters)`;
  if (summary.length < original.length * MEMORY_SUMMARY_FLOOR)
    return `it keeps too little to be a summary (${summary.length} of ${original.length} characters)`;
  return undefined;
}
