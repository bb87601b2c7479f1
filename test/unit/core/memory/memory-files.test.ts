import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetLine, rememberLine } from '../../../../core/memory/personal-memory.js';
import { readWorkspaceMemory } from '../../../../core/memory/workspace-memory.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hac-memory-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('workspace memory files', () => {
  it('huge-binary-and-unreadable-files-are-skipped-with-a-line-each-and-the-rest-is-read', async () => {
    const repo = path.join(root, 'repo');
    const app = path.join(repo, 'app');
    mkdirSync(path.join(repo, '.git'), { recursive: true });
    mkdirSync(app);
    writeFileSync(path.join(repo, 'AGENTS.md'), Buffer.alloc(300 * 1024, 'a'));
    writeFileSync(path.join(repo, 'HAC.md'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x01]));
    symlinkSync('AGENTS.md', path.join(app, 'AGENTS.md')); // a link to itself: ELOOP
    writeFileSync(path.join(app, 'HAC.md'), '한국어로 답하세요.\n');
    const { files, skipped } = await readWorkspaceMemory(app, root);
    expect(files).toEqual([{ file: path.join(app, 'HAC.md'), text: '한국어로 답하세요.' }]);
    expect(skipped).toEqual([
      `Workspace memory ${path.join(repo, 'AGENTS.md')} skipped: 300 KB is over the 256 KB limit.`,
      `Workspace memory ${path.join(repo, 'HAC.md')} skipped: it is not text.`,
      `Workspace memory ${path.join(app, 'AGENTS.md')} skipped: it cannot be read (ELOOP).`,
    ]);
  });

  it('without-a-repository-the-search-stops-at-the-home-folder', async () => {
    const home = path.join(root, 'home');
    const deep = path.join(home, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    writeFileSync(path.join(root, 'AGENTS.md'), 'above home\n');
    writeFileSync(path.join(home, 'AGENTS.md'), 'home\n');
    writeFileSync(path.join(deep, 'AGENTS.md'), 'deep\n');
    const { files } = await readWorkspaceMemory(deep, home);
    expect(files.map((f) => f.text)).toEqual(['home', 'deep']);
  });
});

describe('personal memory lines', () => {
  it('remember-and-forget-touch-only-their-own-line', async () => {
    const file = path.join(root, 'memory.md');
    writeFileSync(file, '# My notes\r\n- tabs over spaces\r\n\r\nfree text the user wrote');
    expect(await rememberLine(file, '  likes   tea ')).toBe('- likes tea');
    expect(readFileSync(file, 'utf8')).toBe(
      '# My notes\r\n- tabs over spaces\r\n\r\nfree text the user wrote\n- likes tea\n',
    );
    expect(await forgetLine(file, 2)).toBe('- tabs over spaces');
    expect(readFileSync(file, 'utf8')).toBe('# My notes\r\n\r\nfree text the user wrote\n- likes tea\n');
    await expect(forgetLine(file, 9)).rejects.toThrow('There is no line 9');
  });
});
