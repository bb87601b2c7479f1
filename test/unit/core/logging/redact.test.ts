import { describe, expect, it } from 'vitest';
import { redact } from '../../../../core/logging/redact.js';

describe('redact', () => {
  it('removes-openai-style-keys', () => {
    expect(redact('key sk-abcdefghij1234abcd used')).toBe('key [redacted] used');
  });

  it('removes-authorization-header-values-in-json-and-text', () => {
    expect(redact('{"Authorization":"Bearer abc.def.ghi-123"}')).not.toContain('abc.def.ghi-123');
    expect(redact('authorization: Basic dXNlcjpwYXNz')).toBe('authorization: Basic [redacted]');
    expect(redact('"x-api-key": "k-123456789"')).toBe('"x-api-key": "[redacted]"');
  });

  it('leaves-ordinary-text-alone', () => {
    const text = 'The task-list has 3 items; see docs at https://example.com/a?b=c';
    expect(redact(text)).toBe(text);
  });
});
