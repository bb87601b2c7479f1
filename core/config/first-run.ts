import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { DEFAULT_SYSTEM_PROMPT } from './default-system-prompt.js';
import type { HacPaths } from './paths.js';

/**
 * Makes the home usable (R-HOME-3, R-SP-1): the folder (0700), `logs/`, `sessions/` and a default
 * `system_prompt.txt` when there is none. Existing files are never touched; config.json is never created.
 */
export async function ensureHome(paths: HacPaths): Promise<{ createdSystemPrompt: boolean }> {
  await fs.mkdir(paths.home, { recursive: true, mode: 0o700 });
  await fs.mkdir(paths.logs, { recursive: true, mode: 0o700 });
  try {
    await writeFileAtomic(paths.systemPrompt, DEFAULT_SYSTEM_PROMPT, { mode: 0o644, exclusive: true });
    return { createdSystemPrompt: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { createdSystemPrompt: false };
    throw error;
  }
}

/** The base system prompt (R-SP-2): the file's trimmed text, or undefined when it is empty or missing. */
export async function readBaseSystemPrompt(paths: HacPaths): Promise<string | undefined> {
  try {
    const text = (await fs.readFile(paths.systemPrompt, 'utf8')).trim();
    return text || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
