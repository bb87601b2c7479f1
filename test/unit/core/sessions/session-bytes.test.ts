import { describe, expect, it } from 'vitest';
import { SecretRegistry } from '../../../../core/logging/secrets.js';
import { SessionBytes } from '../../../../core/sessions/session-bytes.js';
import type { SessionFile } from '../../../../core/sessions/session-file.js';

const text = (pieces: Uint8Array[]) => Buffer.concat(pieces).toString('utf8');
const whole = (session: SessionFile, secrets: SecretRegistry) =>
  `${JSON.stringify(secrets.redactDeep(session), null, 2)}\n`;

function session(turns: number, extra: Partial<SessionFile> = {}): SessionFile {
  const messages = Array.from({ length: turns }, (_, i) => [
    {
      role: 'user' as const,
      content: `질문 ${i}: "quoted"\nline two\t\\ 東京`,
      createdAt: '2026-11-26T01:00:00+09:00',
    },
    {
      role: 'assistant' as const,
      content: `answer ${i} 🙂`,
      model: 'gpt-test',
      usage: { inputTokens: i, outputTokens: 2 * i },
      steps: [
        { tool: { server: 's', name: 't', arguments: { a: [1, { b: null }] }, ok: true, result: 'r' } },
      ],
    },
  ]).flat();
  return { version: 1, startedAt: '2026-11-26T01:00:00+09:00', model: 'gpt-test', messages, ...extra };
}

describe('a session file written in pieces', () => {
  it('is-byte-for-byte-what-json-stringify-writes-empty-one-and-many-turns-summaries-and-unknown-keys', () => {
    const secrets = new SecretRegistry();
    const bytes = new SessionBytes(secrets);
    for (const s of [
      session(0),
      session(1),
      session(30, { title: '여행 "계획"', summaries: [{ content: '- a', covers: 4 }] }),
      session(3, { summaries: [] }),
      {
        summaries: [
          { content: '- first', covers: 2 },
          { content: '- 둘째', covers: 4 },
        ],
        ...session(5),
      },
      { ...session(2), extra: { messages: [], nested: { messages: [] } } } as SessionFile,
    ])
      expect(text(bytes.encode(s))).toBe(whole(s, secrets));
  });

  it('a-secret-learnt-after-a-message-was-encoded-is-masked-in-the-next-write', () => {
    const secrets = new SecretRegistry();
    const bytes = new SessionBytes(secrets);
    const s = session(3);
    s.messages[1]!.content = 'the key is sk-live-abcdef123456';
    expect(text(bytes.encode(s))).toContain('sk-live-abcdef123456');
    secrets.add(['sk-live-abcdef123456']);
    const after = text(bytes.encode(s));
    expect(after).not.toContain('sk-live-abcdef123456');
    expect(after).toBe(whole(s, secrets));
    expect(bytes.redacted(s).messages[1]!.content).toBe('the key is [redacted]');
  });

  it('a-message-already-written-is-not-encoded-again', () => {
    const bytes = new SessionBytes(new SecretRegistry());
    const s = session(50);
    const first = bytes.encode(s);
    const next = { ...s, messages: [...s.messages, { role: 'user' as const, content: 'one more' }] };
    const second = bytes.encode(next);
    // The same bytes objects for the messages both writes hold (the first's is a view of its own): only the new
    // one was encoded.
    const shared = second.filter((piece) => first.includes(piece));
    expect(shared).toHaveLength(99); // 100 messages
  });

  it('the-head-is-what-a-save-adding-a-message-starts-with-and-stops-before-what-moves', () => {
    const bytes = new SessionBytes(new SecretRegistry());
    const s = session(3, { summaries: [{ content: '- kept facts', covers: 2 }] });
    const head = text(bytes.head(s));
    const next = text(
      bytes.encode({ ...s, messages: [...s.messages, { role: 'user', content: 'one more' }] }),
    );
    expect(next.startsWith(head)).toBe(true);
    expect(head.endsWith('    }')).toBe(true); // the last message, closed
    expect(head).toContain('answer 2 🙂');
    expect(head).not.toContain('kept facts');
  });
});
