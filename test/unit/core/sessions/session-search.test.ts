import { appendFileSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionFile } from '../../../../core/sessions/session-file.js';
import { FileSessionStore } from '../../../../core/sessions/session-store.js';
import { useTempDir } from '../../../helpers/temp-home.js';

// Finding a conversation: every word in its messages, any script, newest first, with the line that matched; the
// index beside the sessions is used while the folder is as hac left it, and rebuilt from the files otherwise.
const tempDir = useTempDir();

const session = (...contents: string[]): SessionFile => ({
  version: 1,
  messages: contents.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content })),
});

async function store() {
  const dir = path.join(tempDir(), 'sessions');
  const s = new FileSessionStore(dir);
  const a = await s.create(session('서울 날씨 알려줘', '오늘 서울은 맑습니다.'), new Date(2026, 0, 1), 'a');
  const b = await s.create(
    session('Deploy to staging', 'Deployed. 東京の天気は晴れ。'),
    new Date(2026, 0, 2),
    'b',
  );
  const c = await s.create(
    session('Review the query', 'The DATABASE query looks fine.'),
    new Date(2026, 0, 3),
    'c',
  );
  return { s, dir, a, b, c };
}

const names = (list: { file: string }[]) => list.map((l) => path.basename(l.file));

describe('/sessions with words', () => {
  it('finds-every-word-case-insensitive-inside-longer-text-in-any-script-newest-first', async () => {
    const { s, b, c } = await store();
    await s.list(); // builds the index
    expect(names(await s.search(['서울']))).toEqual([path.basename((await s.list()).at(-1)!.file)]);
    expect(names(await s.search(['天気']))).toEqual([path.basename(b)]);
    expect(names(await s.search(['database', 'QUERY']))).toEqual([path.basename(c)]);
    expect(await s.search(['database', '서울'])).toEqual([]);
    const [hit] = await s.search(['맑습']);
    expect(hit).toMatchObject({ readable: true, match: '오늘 서울은 맑습니다.' });
  });

  it('what-hac-writes-is-found-at-once-without-a-rebuild', async () => {
    const { s, dir, b } = await store();
    await s.list();
    const list = path.join(dir, '.index', 'list.ndjson');
    const before = readFileSync(list, 'utf8');
    const next = session(
      'Deploy to staging',
      'Deployed.',
      'And now production?',
      'Rolled out to 부산 region.',
    );
    await s.save(b, next, next.messages.slice(2));
    // Appended to, not rebuilt: the earlier lines are as they were, and the folder time recorded is current.
    const after = readFileSync(list, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(JSON.parse(after.trimEnd().split('\n').at(-1)!).folder).toBe(statSync(dir).mtimeMs);
    expect(names(await s.search(['부산', 'staging']))).toEqual([path.basename(b)]);
    expect((await s.list())[0]).toMatchObject({ messageCount: 4, title: 'Deploy to staging' });
  });

  it('a-save-begun-with-the-question-writes-what-a-plain-save-would-and-keeps-the-index-current', async () => {
    const { s, dir, b } = await store();
    await s.list();
    const asked = session('Deploy to staging', 'Deployed.', 'And now 부산?');
    const answered = {
      ...asked,
      messages: [...asked.messages, { role: 'assistant' as const, content: 'Done.' }],
    };
    const unanswered = { role: 'assistant' as const, content: '[no answer yet]', status: 'failed' as const };
    s.prepareSave(b, asked, unanswered);
    // The question is on disk, whole, before its answer comes (a crash keeps it), marked as not answered yet.
    await expect
      .poll(() => (JSON.parse(readFileSync(b, 'utf8')) as typeof answered).messages.slice(-2))
      .toEqual([asked.messages.at(-1), unanswered]);
    await s.save(b, answered, answered.messages.slice(2));
    const plain = path.join(tempDir(), 'plain');
    const other = new FileSessionStore(plain);
    const file = await other.create(answered, new Date(2026, 0, 2), 'b');
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(file, 'utf8'));
    // The temp file appeared after the folder time the save started from: the index is not stale.
    const list = readFileSync(path.join(dir, '.index', 'list.ndjson'), 'utf8');
    expect(JSON.parse(list.trimEnd().split('\n').at(-1)!).folder).toBe(statSync(dir).mtimeMs);
    expect(names(await s.search(['부산']))).toEqual([path.basename(b)]);
  });

  it('files-added-or-removed-by-hand-and-a-torn-index-are-read-from-the-files', async () => {
    const { s, dir, a } = await store();
    await s.list();
    rmSync(a);
    writeFileSync(path.join(dir, 'by-hand.json'), JSON.stringify(session('손으로 쓴 대화', 'ok')));
    expect(names(await s.search(['서울']))).toEqual([]);
    expect(names(await s.search(['손으로']))).toEqual(['by-hand.json']);
    appendFileSync(path.join(dir, '.index', 'list.ndjson'), '{"name": "torn');
    expect((await s.list()).map((l) => l.name).sort()).toEqual(
      ['by-hand.json', ...names((await s.list()).filter((l) => l.name !== 'by-hand.json'))].sort(),
    );
    expect(await s.list()).toHaveLength(3);
  });

  it('a-renamed-file-is-found-under-its-new-name-only', async () => {
    const { s, dir, c } = await store();
    await s.list();
    renameSync(c, path.join(dir, 'renamed.json'));
    expect(names(await s.search(['database']))).toEqual(['renamed.json']);
  });
});
