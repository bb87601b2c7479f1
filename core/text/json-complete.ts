/**
 * Whether a JSON text is complete: every string closed and every `{`/`[` matched. A tool call's arguments cut off
 * by the end of the stream (`{"path": "/important/dir`) are not, and must never be "repaired" into a run
 *; a trailing comma in otherwise complete JSON is only style.
 */
export function isCompleteJson(text: string): boolean {
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
      if (depth < 0) return false;
    } else if (!/\s/.test(char)) sawValue = true;
  }
  return sawValue && depth === 0 && !inString;
}
