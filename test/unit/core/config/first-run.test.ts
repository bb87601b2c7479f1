import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureHome, readBaseSystemPrompt } from '../../../../core/config/first-run.js';
import { hacPaths, resolveHome } from '../../../../core/config/paths.js';
import { useTempDir } from '../../../helpers/temp-home.js';

const tempDir = useTempDir();
const fixture = path.resolve(import.meta.dirname, '../../../fixtures/spec/default-system-prompt.txt');
const sharedSpec = path.resolve(import.meta.dirname, '../../../../../shared/spec/default-system-prompt.txt');

describe('first run', () => {
  it('creates-the-home-0700-logs-and-a-byte-exact-system-prompt', async () => {
    const paths = hacPaths(path.join(tempDir(), 'home'));
    expect(await ensureHome(paths)).toEqual({ createdSystemPrompt: true });
    expect(statSync(paths.home).mode & 0o777).toBe(0o700);
    expect(statSync(paths.logs).isDirectory()).toBe(true);
    expect(readFileSync(paths.systemPrompt)).toEqual(readFileSync(fixture));
    expect(existsSync(paths.config)).toBe(false); // never created silently (R-HOME-3)
    expect(existsSync(paths.mcpServers)).toBe(false);
  });

  it('never-overwrites-an-existing-prompt-even-an-empty-one', async () => {
    const paths = hacPaths(tempDir());
    writeFileSync(paths.systemPrompt, '');
    expect(await ensureHome(paths)).toEqual({ createdSystemPrompt: false });
    expect(readFileSync(paths.systemPrompt, 'utf8')).toBe('');
    expect(await readBaseSystemPrompt(paths)).toBeUndefined();
    writeFileSync(paths.systemPrompt, '  my prompt\n\n');
    await ensureHome(paths);
    expect(await readBaseSystemPrompt(paths)).toBe('my prompt');
  });

  it('ships-the-spec-text-unchanged', (ctx) => {
    if (!existsSync(sharedSpec)) ctx.skip(`the spec folder ${sharedSpec} is not beside this checkout`);
    expect(readFileSync(fixture)).toEqual(readFileSync(sharedSpec));
  });
});

describe('paths', () => {
  it('uses-HAC_HOME-over-HOME', () => {
    const dir = tempDir();
    expect(resolveHome({ HAC_HOME: dir, HOME: '/elsewhere' })).toBe(dir);
    expect(resolveHome({ HOME: '/home/u' })).toBe('/home/u/.humble-ai-cli');
    mkdirSync(path.join(dir, 'x'));
    expect(hacPaths(dir)).toMatchObject({
      config: path.join(dir, 'config.json'),
      sessions: path.join(dir, 'sessions'),
      history: path.join(dir, 'history'),
    });
  });
});
