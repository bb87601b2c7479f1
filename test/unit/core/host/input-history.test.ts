import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_SIZE, loadHistory, saveHistory } from '../../../../core/host/input-history.js';
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
