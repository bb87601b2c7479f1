/**
 * Words that introduce an illustration rather than an action: a model explaining how a call is written ("for
 * example", "it looks like this", "the format is") shows the shape; it is not asking for a run. English, Korean,
 * Japanese and Chinese, as people ask hac in all four.
 */
const EXAMPLE_CUES = new RegExp(
  [
    String.raw`\b(?:for (?:example|instance)|e\.g\.|examples?\b(?!\.\w)|(?:looks?|would look) like (?:this|so)`,
    String.raw`looks? like:|like this:|would be(?: written|:)|you(?: would|'d| could| can) write|template|syntax`,
    String.raw`the (?:format|shape|structure) (?:is|of|looks))`,
    '예를 들어|예를 들면|예시|예:|형식은|템플릿',
    '例えば|例:|例：|形式は|テンプレート',
    '例如|示例|比如|格式如下|格式为|模板',
  ].join('|'),
  'i',
);

/** How far back the words before a possible call are read. */
export const EXAMPLE_CONTEXT = 300;

/**
 * Whether the words just before a possible call (its own line before it, and the line with text above) introduce
 * it as an example. Only what the model wrote before the call counts, so the answer does not depend on how its
 * text was split into deltas.
 */
export function introducesExample(before: string): boolean {
  const lines = before.slice(-EXAMPLE_CONTEXT).split('\n');
  const current = lines.pop() ?? '';
  const above = lines.reverse().find((line) => line.trim() !== '') ?? '';
  // A fence's opening line (```json) says nothing: the words before the fence do.
  const words = /^\s*`{3,}/.test(above) ? '' : above;
  return EXAMPLE_CUES.test(current) || EXAMPLE_CUES.test(words);
}
