import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { HacPaths } from '../config/paths.js';
import { linkTarget, removeStaleTempFiles } from '../fs/atomic-write.js';
import type { Logger } from '../logging/logger.js';
import { sessionIndexDir } from '../sessions/session-index.js';

/** Removes what writers killed mid-write left, in the background of a start; never fails the start. */
export function sweepTempFiles(paths: HacPaths, logger: Logger): Promise<void> {
  return tempFileFolders(paths)
    .then((dirs) => removeStaleTempFiles(dirs))
    .then((n) => void (n && logger.info(`Removed ${n} temp files left by interrupted writes.`)))
    .catch((error: unknown) => logger.warn(`Removing stale temp files failed: ${String(error)}`));
}

/**
 * Every folder hac writes into atomically, so every place a killed writer can leave a temp file: the home,
 * sessions/ with its index and each session's pictures, mcp-auth/, tool-results/, and the folder a symlinked
 * file of ours really lives in (the temp file goes beside the link's target).
 */
async function tempFileFolders(paths: HacPaths): Promise<string[]> {
  const linkable = [paths.config, paths.mcpServers, paths.memory, paths.history, paths.systemPrompt];
  // A link to a file not written yet counts too: the first write creates it where the link points.
  const linked = await Promise.all(linkable.map(async (file) => path.dirname(await linkTarget(file))));
  const sessions = await fs.readdir(paths.sessions, { withFileTypes: true }).catch(() => []);
  const assets = sessions
    .filter((entry) => entry.isDirectory() && entry.name.endsWith('.assets'))
    .map((entry) => path.join(paths.sessions, entry.name));
  return [
    ...new Set([
      paths.home,
      paths.sessions,
      sessionIndexDir(paths.sessions),
      paths.mcpAuth,
      paths.toolResults,
      ...assets,
      ...linked,
    ]),
  ];
}
