import { constants, promises as fs } from 'node:fs';
import { fileAccessError } from '../fs/file-access.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { DEFAULT_SYSTEM_PROMPT } from './default-system-prompt.js';
import type { HacPaths } from './paths.js';

/**
 * Makes the home usable: the folder (0700), `logs/`, `sessions/` and a default
 * `system_prompt.txt` when there is none. Existing files are never touched; config.json is never created.
 */
export async function ensureHome(paths: HacPaths): Promise<{ createdSystemPrompt: boolean }> {
  // Sessions, history, logs and edits are written here: a read-only or foreign home is said at start, not mid-chat.
  await makeWritableFolder(paths.home);
  await makeWritableFolder(paths.logs);
  // Looked at first: writing a temp file only to find the prompt already there costs every start (and fails on a full disk).
  const existing = await fs.stat(paths.systemPrompt).catch(() => undefined);
  if (existing?.isDirectory())
    throw fileAccessError(Object.assign(new Error(), { code: 'EISDIR' }), paths.systemPrompt, 'read');
  if (existing) return { createdSystemPrompt: false };
  try {
    await writeFileAtomic(paths.systemPrompt, DEFAULT_SYSTEM_PROMPT, { mode: 0o644, exclusive: true });
    return { createdSystemPrompt: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { createdSystemPrompt: false }; // a second hac
    throw error;
  }
}

async function makeWritableFolder(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw fileAccessError(error, dir, 'create');
  }
  await fs.access(dir, constants.W_OK).catch((error: unknown) => {
    throw fileAccessError(error, dir, 'use');
  });
}

/** The base system prompt: the file's trimmed text, or undefined when it is empty or missing. */
export async function readBaseSystemPrompt(paths: HacPaths): Promise<string | undefined> {
  try {
    const text = (await fs.readFile(paths.systemPrompt, 'utf8')).trim();
    return text || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileAccessError(error, paths.systemPrompt, 'read');
  }
}
