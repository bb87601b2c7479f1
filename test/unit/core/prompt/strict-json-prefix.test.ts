import { describe, expect, it } from 'vitest';
import { StrictJsonPrefix } from '../../../../core/prompt/strict-json-prefix.js';

// R-PARSE-6: strictly valid JSON may hold blank lines; the check says whether a candidate still is.

function brokenAfter(text: string): boolean {
  const check = new StrictJsonPrefix(text.charAt(0));
  for (const c of text.slice(1)) check.feed(c);
  return check.broken;
}

describe('StrictJsonPrefix', () => {
  it('accepts-prefixes-of-strict-json-with-any-whitespace', () => {
    for (const text of [
      '{',
      '{\n\n  "a"',
      '{"a": [1, -2.5e3, true, false, null, {"b": "c\\"d"}],\n\n',
      '[{"x": 1}, 2]',
      '{"a": "\\u00e9"}',
    ])
      expect(brokenAfter(text), text).toBe(false);
  });

  it('breaks-on-what-only-lenient-json-allows', () => {
    for (const text of [
      '{a: 1}', // unquoted key
      "{'a': 1}",
      '{"a": 1,}',
      '{"a": 1 // note',
      '{"a": "line\nbreak"}',
      '{"a": tru }',
      '{"a": 1}}',
      '{"a" 1}',
      '[1 2]',
      '{"a": 1}\nMore prose',
    ])
      expect(brokenAfter(text), text).toBe(true);
  });

  it('starts-over-at-an-inner-value', () => {
    const check = new StrictJsonPrefix('{');
    for (const c of 'a: ') check.feed(c);
    expect(check.broken).toBe(true);
    check.restart('{');
    for (const c of '"b": 1}') check.feed(c);
    expect(check.broken).toBe(false);
    expect(check.done).toBe(true);
  });
});
