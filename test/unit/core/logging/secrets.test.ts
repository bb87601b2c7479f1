import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, SecretRegistry } from '../../../../core/logging/secrets.js';

function registry(...values: (string | undefined)[]): SecretRegistry {
  const secrets = new SecretRegistry();
  secrets.add(values);
  return secrets;
}

describe('SecretRegistry', () => {
  it('masks-a-value-that-has-no-key-shape-wherever-a-server-quotes-it', () => {
    const secrets = registry('local-llm-key-42x');
    expect(secrets.redact('Invalid API key: local-llm-key-42x.')).toBe('Invalid API key: [redacted].');
    expect(secrets.redact('quota exceeded for key local-llm-key-42x (x2: local-llm-key-42x)')).toBe(
      'quota exceeded for key [redacted] (x2: [redacted])',
    );
  });

  it('masks-the-token-of-a-bearer-header-url-encoded-and-base64', () => {
    const secrets = registry('Bearer tok/with+chars=');
    expect(secrets.redact('invalid token "Bearer tok/with+chars="')).toBe('invalid token "[redacted]"');
    expect(secrets.redact('got tok/with+chars= from you')).toBe('got [redacted] from you');
    expect(secrets.redact(`?token=${encodeURIComponent('tok/with+chars=')}`)).toBe('?token=[redacted]');
    expect(secrets.redact(Buffer.from('tok/with+chars=').toString('base64'))).toBe('[redacted]');
  });

  it('masks-basic-auth-as-written-decoded-and-its-password-alone', () => {
    const secrets = registry(`Basic ${Buffer.from('alice:s3cret-pw').toString('base64')}`);
    expect(secrets.redact('auth alice:s3cret-pw refused')).toBe('auth [redacted] refused');
    expect(secrets.redact('password s3cret-pw is wrong')).toBe('password [redacted] is wrong');
    expect(secrets.redact(`header YWxpY2U6czNjcmV0LXB3`)).toBe('header [redacted]');
  });

  it('replaces-the-longest-value-whole-when-one-contains-another', () => {
    expect(registry('hunter2x', 'hunter2xhunter2x').redact('a=hunter2xhunter2x b=hunter2xy')).toBe(
      'a=[redacted] b=[redacted]y',
    );
  });

  it('leaves-short-values-numbers-flags-and-paths-alone', () => {
    const secrets = registry('true', '1', 'info', '8080', '1234567', 'production', '/usr/local/bin', 'abcde');
    const text = 'true 1 info on 8080 and 1234567 in production from /usr/local/bin: abcde';
    expect(secrets.redact(text)).toBe(text);
    expect(MIN_SECRET_LENGTH).toBe(6);
    expect(registry('abcdef').redact('x abcdef')).toBe('x [redacted]');
  });

  it('redacts-every-string-of-an-event-and-returns-the-same-object-when-nothing-matched', () => {
    const secrets = registry('sekrit-value');
    const clean = { type: 'text-delta', text: 'hello' };
    expect(secrets.redactDeep(clean)).toBe(clean);
    const event = { type: 'error', error: { message: 'bad sekrit-value', hints: ['x', 'sekrit-value'] } };
    expect(secrets.redactDeep(event)).toEqual({
      type: 'error',
      error: { message: 'bad [redacted]', hints: ['x', '[redacted]'] },
    });
    expect(event.error.message).toBe('bad sekrit-value'); // the original is not changed
  });
});
