import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { foldedText } from '../text/pasted-text.js';

/** Entries kept in the `history` file. */
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

/**
 * What of an entry the history keeps: the address of a sign-in pasted back (`/mcp login <server> <address>`)
 * carries a one-use authorization code, so only `/mcp login <server>` is kept; a long paste is kept as its start
 * and its size (a history of 200 KB entries would be slow to load and to scroll through).
 */
export function forHistory(entry: string): string {
  return foldedText(entry.replace(/^(\s*\/mcp\s+login\s+\S+)\s+\S[\s\S]*$/, '$1'));
}

/**
 * Each entry's line on disk, kept from save to save: the whole history is written after every message, and
 * converting its thousand entries again each time was most of what a turn allocated.
 */
const diskLines = new Map<string, string>();

/** Saves the history (newest first in memory, oldest first on disk), atomically and 0600. */
export async function saveHistory(file: string, history: readonly string[]): Promise<void> {
  if (diskLines.size > 2 * HISTORY_SIZE) diskLines.clear();
  const count = Math.min(history.length, HISTORY_SIZE);
  const lines = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const entry = history[i] as string;
    let line = diskLines.get(entry);
    if (line === undefined) diskLines.set(entry, (line = escapeLine(forHistory(entry))));
    lines[count - 1 - i] = line;
  }
  await writeFileAtomic(file, `${lines.join('\n')}\n`, { mode: 0o600 });
}

// One entry per line: a pasted multi-line entry keeps its newlines as \n escapes.
function escapeLine(line: string): string {
  return line.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function unescapeLine(line: string): string {
  return line.replace(/\\(\\|n)/g, (_m, c: string) => (c === 'n' ? '\n' : '\\'));
}

/** The shared history as a window uses it: read once, then each submitted line added and saved in order. */
export interface InputHistory {
  /** Newest first. */
  entries(): Promise<string[]>;
  add(entry: string): Promise<void>;
}

export function createInputHistory(file: string, onError: (error: unknown) => void): InputHistory {
  let loaded: Promise<string[]> | undefined;
  let saving = Promise.resolve();
  const entries = () => (loaded ??= loadHistory(file));
  return {
    entries: async () => [...(await entries())],
    add(entry) {
      const text = forHistory(entry.trim());
      if (!text) return saving;
      saving = saving
        .then(async () => {
          const list = await entries();
          const at = list.indexOf(text);
          if (at !== -1) list.splice(at, 1); // readline's removeHistoryDuplicates
          list.unshift(text);
          list.length = Math.min(list.length, HISTORY_SIZE);
          await saveHistory(file, list);
        })
        .catch(onError);
      return saving;
    },
  };
}
