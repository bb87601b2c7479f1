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
    expect(name).toBe('20261128_090000_picture.md');
    expect(text).toMatch(/^# 그림 설명\n/);
    expect(text).toContain(`![a.png](data:image/png;base64,${bytes.toString('base64')})`);
    expect(text).toContain(`![gone.png](${'f'.repeat(64)}.png)`);
  });

  it('as JSON is the session file as saved', async () => {
    const { file: name, text } = await sessionDownload(file, session, 'json');
    expect(name).toBe('20261128_090000_picture.json');
    expect(JSON.parse(text)).toEqual(session);
  });
});
