import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionDownload } from '../../../../core/sessions/session-export.js';
import type { SessionFile } from '../../../../core/sessions/session-file.js';

// A session as one file to download where the page is: the Markdown carries its pictures inside.
describe('a session to download', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-download-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, '20261128_090000_picture.json');
  const bytes = Buffer.from('not really a png, but bytes');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const image = {
    mediaType: 'image/png' as const,
    width: 2,
    height: 2,
    bytes: bytes.length,
    sha256,
    name: 'a.png',
  };
  const gone = { ...image, sha256: 'f'.repeat(64), name: 'gone.png' };
  const session = {
    version: 1,
    title: '그림 설명',
    messages: [
      { role: 'user', content: '이게 뭐야?', images: [image, gone] },
      { role: 'assistant', content: 'A picture.' },
    ],
  } as unknown as SessionFile;
  writeFileSync(file, JSON.stringify(session));
  mkdirSync(path.join(dir, '20261128_090000_picture.assets'));
  writeFileSync(path.join(dir, '20261128_090000_picture.assets', `${sha256}.png`), bytes);

  it('as Markdown has its pictures inside as data: URLs, and names one no longer on disk', async () => {
    const { file: name, text } = await sessionDownload(file, session, 'md');
    expect(name).toBe('그림 설명.md');
    expect(text).toMatch(/^# 그림 설명\n/);
    expect(text).toContain(`![a.png](data:image/png;base64,${bytes.toString('base64')})`);
    expect(text).toContain(`![gone.png](${'f'.repeat(64)}.png)`);
  });

  it('as JSON is the session file as saved', async () => {
    const { file: name, text } = await sessionDownload(file, session, 'json');
    expect(name).toBe('그림 설명.json');
    expect(JSON.parse(text)).toEqual(session);
  });
});

// What the screen blocked must not act from a downloaded file either.
describe('a downloaded session is inert', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-download-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, '20261202_090000_hostile.json');
  const hostile = 'ok\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\u009b2J\x7f\u202egnp.exe';
  const session = {
    version: 1,
    messages: [
      { role: 'user', content: 'q\x1b]0;title\x07' },
      { role: 'assistant', content: hostile },
    ],
  } as unknown as SessionFile;
  writeFileSync(file, JSON.stringify(session, null, 2));
  const ACTING = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

  it('as Markdown names every control as the screen does', async () => {
    const { text } = await sessionDownload(file, session, 'md');
    expect(text).not.toMatch(ACTING);
    expect(text).toContain('ok\\x1b]52;c;cm0gLXJmIH4K\\x07\\x1b[2J\\x9b2J\\x7f\\u202egnp.exe');
    expect(text).toContain('q\\x1b]0;title\\x07');
  });

  it('as JSON keeps them escaped: the same data, nothing raw', async () => {
    const { text } = await sessionDownload(file, session, 'json');
    expect(text).not.toMatch(ACTING);
    expect(JSON.parse(text)).toEqual(session);
  });

  it('is-named-by-its-title-made-safe-for-any-file-system', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-download-name-'));
    const file = path.join(dir, '20261202_090000_a.json');
    const named = (title: string) => ({ version: 1, title, messages: [] }) as unknown as SessionFile;
    writeFileSync(file, JSON.stringify(named('x')));
    expect((await sessionDownload(file, named('../etc/passwd: a "b"?'), 'md')).file).toBe(
      '_etc_passwd_ a _b__.md',
    );
    expect((await sessionDownload(file, named('\u202e...'), 'md')).file).toBe('_.md');
    expect((await sessionDownload(file, named(''), 'md')).file).toBe('20261202_090000_a.md');
  });
});
