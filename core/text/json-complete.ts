/**
 * Whether a JSON text is complete: every string closed and every `{`/`[` matched. A tool call's arguments cut off
 * by the end of the stream (`{"path": "/important/dir`) are not, and must never be "repaired" into a run
 *; a trailing comma in otherwise complete JSON is only style.
 */
export function isCompleteJson(text: string): boolean {
  return jsonShape(text) === 'complete';
}

/**
 * How a JSON text ends: `complete`; `cut-off` (a string or a `{`/`[` still open: the stream ended inside it); or
 * `unbalanced` (a closer with nothing open, or nothing at all): not JSON however much more came.
 */
export function jsonShape(text: string): 'complete' | 'cut-off' | 'unbalanced' {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let sawValue = false;
  for (const char of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      sawValue = true;
    } else if (char === '{' || char === '[') {
      depth++;
      sawValue = true;
    } else if (char === '}' || char === ']') {
      depth--;
      if (depth < 0) return 'unbalanced';
    } else if (!/\s/.test(char)) sawValue = true;
  }
  if (inString || depth > 0) return 'cut-off';
  return sawValue ? 'complete' : 'unbalanced';
}
