import { describe, expect, it } from 'vitest';
import { isCompleteJson } from '../../../../core/text/json-complete.js';

describe('complete JSON (R-PARSE-8)', () => {
  it.each([
    '{}',
    '{"a": 1, "b": [1, 2]}',
    '{"text": "a } inside"}',
    '{"q": "say \\"hi\\""}',
    '{"a": 1,}',
    ' [1] ',
  ])('complete: %s', (text) => expect(isCompleteJson(text)).toBe(true));
  it.each([
    '{"a": 1, "b":',
    '{"text": "rm -rf /important/dir',
    '{"a": [1, 2',
    '{"q": "escaped \\"',
    '',
    '   ',
    '}{',
  ])('cut off: %s', (text) => expect(isCompleteJson(text)).toBe(false));
});
