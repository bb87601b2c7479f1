import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write.js';

/** Entries kept in the `history` file (R-TTY-1). */
export const HISTORY_SIZE = 1000;

/** A display marker for a line break that older versions wrote into the history file as it was. */
const LEGACY_NEWLINE_MARKER = '\u2424'; // ␤

/**
 * The input history shared by the CLI and the desktop (the `history` file), newest first (readline's order);
 * empty when there is none. A multi-line entry comes back with real line breaks.
 */
export async function loadHistory(file: string): Promise<string[]> {
  try {
    const lines = (await fs.readFile(file, 'utf8')).split('\n').filter(Boolean);
    return lines
      .reverse()
      .slice(0, HISTORY_SIZE)
      .map((line) => unescapeLine(line).replaceAll(LEGACY_NEWLINE_MARKER, '\n'));
  } catch {
    return [];
  }
}

/** Saves the history (newest first in memory, oldest first on disk), atomically and 0600. */
export async function saveHistory(file: string, history: readonly string[]): Promise<void> {
  const lines = history.slice(0, HISTORY_SIZE).map(escapeLine).reverse();
  await writeFileAtomic(file, `${lines.join('\n')}\n`, { mode: 0o600 });
}

// One entry per line: a pasted multi-line entry keeps its newlines as \n escapes.
function escapeLine(line: string): string {
  return line.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function unescapeLine(line: string): string {
  return line.replace(/\\(\\|n)/g, (_m, c: string) => (c === 'n' ? '\n' : '\\'));
}
