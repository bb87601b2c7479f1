import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createInputHistory,
  HISTORY_SIZE,
  loadHistory,
  saveHistory,
} from '../../../../core/host/input-history.js';
import { useTempDir } from '../../../helpers/temp-home.js';

const tempDir = useTempDir();

describe('input history shared by the CLI and the desktop', () => {
  it('stores a multi-line entry escaped, one line per entry, and reads it back', async () => {
    const file = path.join(tempDir(), 'history');
    await saveHistory(file, ['newest', 'line one\nline two', 'C:\\path\\n']);
    expect(readFileSync(file, 'utf8')).toBe('C:\\\\path\\\\n\nline one\\nline two\nnewest\n');
    expect(readFileSync(file, 'utf8')).not.toContain('\u2424');
    expect(await loadHistory(file)).toEqual(['newest', 'line one\nline two', 'C:\\path\\n']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('never-keeps-the-authorization-code-of-a-sign-in-address-pasted-back', async () => {
    const file = path.join(tempDir(), 'history');
    const pasted = '/mcp login linear http://127.0.0.1:41873/callback?code=SECRET-CODE&state=s1';
    await saveHistory(file, [pasted, '/mcp login notion', 'hello']);
    expect(readFileSync(file, 'utf8')).toBe('hello\n/mcp login notion\n/mcp login linear\n');
    const windowHistory = createInputHistory(file, (error) => {
      throw error;
    });
    await windowHistory.add('/mcp login linear 4/0AbCdE-code');
    expect(readFileSync(file, 'utf8')).not.toContain('AbCdE');
    expect((await windowHistory.entries())[0]).toBe('/mcp login linear');
  });

  it('keeps loading files written with the old ␤ display marker', async () => {
    const file = path.join(tempDir(), 'history');
    writeFileSync(file, 'old one\u2424old two\nplain\n');
    expect(await loadHistory(file)).toEqual(['plain', 'old one\nold two']);
  });

  it('keeps the newest entries and reads a missing file as empty', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'history');
    const entries = Array.from({ length: HISTORY_SIZE + 5 }, (_, i) => `entry ${i}`);
    await saveHistory(file, entries);
    const loaded = await loadHistory(file);
    expect(loaded).toHaveLength(HISTORY_SIZE);
    expect(loaded[0]).toBe('entry 0');
    expect(await loadHistory(path.join(dir, 'none'))).toEqual([]);
  });
});
