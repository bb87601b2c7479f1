import { readFileSync, readdirSync, statSync, utimesSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rfc3339Local, type SessionFile } from '../../../../core/sessions/session-file.js';
import { sessionFileName, sessionTitle } from '../../../../core/sessions/session-name.js';
import { blockingCalls, pooledCalls } from '../../../../core/fs/atomic-write.js';
import { FileSessionStore, SessionReadError } from '../../../../core/sessions/session-store.js';
import { useTempDir } from '../../../helpers/temp-home.js';

const tempDir = useTempDir();

describe('session file names (R-SES-2)', () => {
  it.each([
    ['대화 제목 이다', '대화_제목_이다'],
    ['Hello?! there...', 'Hello_th'],
    ['!!!', 'session'],
    ['日本語のテキストを要約して', '日本語のテキストを要'],
    ['  spaced   out  words ', 'spaced_o'],
    ['a/b\\c:d*e?f"g<h>i|j', 'abcde'],
    ['🎉🎉 party', 'party'],
    ['', 'session'],
    ['e\u0301te\u0301 fun', 'e\u0301te\u0301_fun'],
  ])('%j becomes %j', (message, title) => {
    expect(sessionTitle(message)).toBe(title);
  });

  it('uses-the-local-stamp-of-the-first-answered-message', () => {
    expect(sessionFileName(new Date(2025, 9, 16, 16, 20, 30), '대화 제목 이다')).toBe(
      '20251016_162030_대화_제목_이다.json',
    );
    expect(sessionFileName(new Date(2025, 9, 16, 16, 20, 30), '대화 제목 이다', 3)).toBe(
      '20251016_162030_대화_제목_이다_3.json',
    );
  });
});

const sample = (text: string): SessionFile => ({
  version: 1,
  startedAt: rfc3339Local(new Date(2025, 9, 16, 16, 20, 30)),
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: text, createdAt: rfc3339Local(new Date()) },
    {
      role: 'assistant',
      content: 'Hi!',
      createdAt: rfc3339Local(new Date()),
      model: 'gpt-4o',
      usage: { inputTokens: 10, outputTokens: 2 },
    },
  ],
});

describe('FileSessionStore', () => {
  it.each([
    ['through-the-thread-pool', pooledCalls],
    ['blocking', blockingCalls],
  ])('creates-0600-files-and-never-overwrites-adding-_2-%s', async (_how, calls) => {
    const store = new FileSessionStore(path.join(tempDir(), 'sessions'), undefined, calls);
    const started = new Date(2025, 9, 16, 16, 20, 30);
    const first = await store.create(sample('대화 제목 이다'), started, '대화 제목 이다');
    const second = await store.create(sample('대화 제목 이다!'), started, '대화 제목 이다!');
    expect(path.basename(first)).toBe('20251016_162030_대화_제목_이다.json');
    expect(path.basename(second)).toBe('20251016_162030_대화_제목_이다_2.json');
    expect(JSON.parse(readFileSync(first, 'utf8')).messages[0].content).toBe('대화 제목 이다');
    expect(statSync(first).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(first)).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.dirname(first)).sort()).toEqual([path.basename(first), path.basename(second)]);
  });

  it('writes-the-version-1-shape-and-rewrites-in-place', async () => {
    const store = new FileSessionStore(tempDir());
    const file = await store.create(sample('hello'), new Date(), 'hello');
    const next = sample('hello');
    next.messages.push({ role: 'user', content: 'more' }, { role: 'assistant', content: 'sure' });
    next.summaries = [{ content: 'Summary of earlier conversation: - x', covers: 2 }];
    await store.save(file, next);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect(json).toMatchObject({ version: 1, model: 'gpt-4o', summaries: [{ covers: 2 }] });
    expect(json.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(json.messages).toHaveLength(4);
    expect(readdirSync(path.dirname(file))).toHaveLength(1);
    expect(await store.load(file)).toEqual(json);
  });

  it('lists-the-newest-first-and-reports-unreadable-files-without-touching-them', async () => {
    const dir = tempDir();
    const store = new FileSessionStore(dir);
    const older = await store.create(sample('older one'), new Date(2024, 0, 1), 'older one');
    const newer = await store.create(sample('newer one'), new Date(2024, 0, 2), 'newer one');
    utimesSync(older, new Date(2024, 0, 1), new Date(2024, 0, 1));
    utimesSync(newer, new Date(2024, 0, 2), new Date(2024, 0, 2));
    const broken = path.join(dir, '20240103_000000_broken.json');
    writeFileSync(broken, '{"messages": [');
    const listing = await store.list();
    expect(listing.map((l) => l.name)).toEqual([
      path.basename(broken),
      path.basename(newer),
      path.basename(older),
    ]);
    expect(listing[0]).toMatchObject({ readable: false, reason: expect.stringContaining('invalid JSON') });
    expect(listing[1]).toMatchObject({ readable: true, title: 'newer one', messageCount: 2 });
    expect(readFileSync(broken, 'utf8')).toBe('{"messages": [');
    expect(await store.list(1)).toHaveLength(1);
  });

  it('loads-an-original-file-without-version-leniently-and-rejects-garbage', async () => {
    const dir = tempDir();
    const store = new FileSessionStore(dir);
    const original = path.join(dir, 'old.json');
    writeFileSync(
      original,
      JSON.stringify({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
        ],
        extra: 1,
      }),
    );
    expect(await store.load(original)).toMatchObject({
      version: 1,
      extra: 1,
      messages: [{ content: 'q' }, { content: 'a' }],
    });
    const wrong = path.join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ messages: [{ role: 'wizard', content: 1 }] }));
    await expect(store.load(wrong)).rejects.toBeInstanceOf(SessionReadError);
    expect(await new FileSessionStore(path.join(dir, 'none')).list()).toEqual([]);
  });
});

// The answers' saves run behind the prompt: in order, the newest state once when several wait, and all of them
// on disk once `flush` resolves (what every way out of hac awaits).
describe('saves behind the prompt', () => {
  /** Counts the times `file` is put in place (each atomic write renames a finished copy onto it). */
  function watchWrites(file: string) {
    let count = 0;
    const watcher = watch(path.dirname(file), (_event, name) => {
      if (name === path.basename(file)) count++;
    });
    return {
      async count() {
        await new Promise((r) => setTimeout(r, 150)); // the last events are delivered
        watcher.close();
        return count;
      },
    };
  }
  const growing = (n: number): SessionFile => ({
    ...sample('grow'),
    messages: Array.from({ length: n }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      content: `message ${i} ${'x'.repeat(20_000)}`,
      createdAt: rfc3339Local(new Date()),
    })),
  });

  it('saves-not-begun-yet-become-one-write-of-the-newest-state', async () => {
    const store = new FileSessionStore(path.join(tempDir(), 'sessions'));
    const file = await store.create(growing(2), new Date(), 'grow');
    const writes = watchWrites(file);
    const saves = [4, 6, 8, 10].map((n) => store.save(file, growing(n)));
    await Promise.all(saves);
    expect(JSON.parse(readFileSync(file, 'utf8')).messages).toHaveLength(10);
    // None had begun (a write begins once the event loop turns): written once, as the newest.
    expect(await writes.count()).toBe(1);
  });

  it('a-save-after-the-last-has-ended-is-a-write-of-its-own-and-order-holds', async () => {
    const store = new FileSessionStore(path.join(tempDir(), 'sessions'));
    const file = await store.create(growing(2), new Date(), 'grow');
    const writes = watchWrites(file);
    await store.save(file, growing(4));
    await store.save(file, growing(6));
    expect(await writes.count()).toBe(2);
    // Never an older state last: saves begun together land in the order they were asked for.
    for (let round = 0; round < 5; round++) {
      void store.save(file, growing(8));
      void store.save(file, growing(4 + round));
    }
    await store.flush();
    expect(JSON.parse(readFileSync(file, 'utf8')).messages).toHaveLength(8);
  });

  it('flush-resolves-once-every-write-begun-is-on-disk', async () => {
    const store = new FileSessionStore(path.join(tempDir(), 'sessions'));
    const file = await store.create(growing(2), new Date(), 'grow');
    void store.save(file, growing(12));
    await store.flush();
    expect(JSON.parse(readFileSync(file, 'utf8')).messages).toHaveLength(12);
    expect(readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
