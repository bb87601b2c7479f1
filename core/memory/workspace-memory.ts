import { promises as fs } from 'node:fs';
import path from 'node:path';

/** A memory file and what it says. */
export interface MemoryFile {
  file: string;
  text: string;
}

/** The names other agents read for a project's instructions; `HAC.md` is hac's own. */
const NAMES = ['AGENTS.md', 'HAC.md'];

/** A larger file is skipped: instructions that long are not notes, and would crowd out the conversation. */
const MAX_BYTES = 256 * 1024;

/**
 * The workspace memory of a directory: the AGENTS.md and HAC.md files of it and of its parents up to the
 * repository root (the folder holding `.git`) or the home folder, whichever comes first, the nearest last (it
 * has the last word). Read-only. A file too large, binary or unreadable is skipped with a line saying why.
 */
export async function readWorkspaceMemory(
  cwd: string,
  home: string,
): Promise<{ files: MemoryFile[]; skipped: string[] }> {
  const folders: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    folders.push(dir);
    const top =
      dir === path.resolve(home) || dir === path.dirname(dir) || (await exists(path.join(dir, '.git')));
    if (top) break;
  }
  const files: MemoryFile[] = [];
  const skipped: string[] = [];
  for (const dir of folders.reverse()) {
    for (const name of NAMES) {
      const file = path.join(dir, name);
      const read = await readMemoryFile(file);
      if (read === undefined) continue;
      if (typeof read === 'string') files.push({ file, text: read });
      else skipped.push(`Workspace memory ${file} skipped: ${read.why}.`);
    }
  }
  return { files, skipped };
}

async function readMemoryFile(file: string): Promise<string | { why: string } | undefined> {
  let bytes: Buffer;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return undefined;
    if (stat.size > MAX_BYTES)
      return { why: `${Math.round(stat.size / 1024)} KB is over the ${MAX_BYTES / 1024} KB limit` };
    bytes = await fs.readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { why: `it cannot be read (${code ?? String(error)})` };
  }
  if (bytes.includes(0)) return { why: 'it is not text' };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).trim();
  return text === '' ? undefined : text;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
