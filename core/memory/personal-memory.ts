import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { fileAccessError } from '../fs/file-access.js';

/**
 * The user's own memory file (`memory.md`): one fact per line, written `- …`. hac adds and removes whole lines
 * and leaves every other line exactly as the user wrote it; it never "repairs" what it does not understand.
 */
export async function readPersonalMemory(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw fileAccessError(error, file, 'read');
  }
}

/** The lines with text, numbered from 1 as `/memory` shows them and `/forget` takes them. */
export function memoryLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '');
}

/** `/remember`: adds `- fact` as the last line (the file is made, 0600, on first use); resolves with the line. */
export async function rememberLine(file: string, fact: string): Promise<string> {
  const text = fact.replace(/\s+/g, ' ').trim();
  if (!text) throw new Error('Nothing to remember: /remember <text>.');
  const line = text.startsWith('- ') ? text : `- ${text}`;
  const current = await readPersonalMemory(file);
  const joined = current === '' || current.endsWith('\n') ? current : `${current}\n`;
  await writeFileAtomic(file, `${joined}${line}\n`, { mode: 0o600 });
  return line;
}

/** `/forget n`: removes line n (of `memoryLines`), everything else untouched; resolves with the line removed. */
export async function forgetLine(file: string, n: number): Promise<string> {
  const current = await readPersonalMemory(file);
  const lines = current.split(/(?<=\n)/);
  let seen = 0;
  const index = lines.findIndex((line) => line.trim() !== '' && ++seen === n);
  if (index < 0) throw new Error(`There is no line ${n} in ${file} (see /memory).`);
  const removed = lines[index]!.replace(/\r?\n$/, '');
  lines.splice(index, 1);
  await writeFileAtomic(file, lines.join(''), { mode: 0o600 });
  return removed;
}
