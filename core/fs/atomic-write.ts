import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** File mode for a file that does not exist yet; an existing file keeps its mode. */
  mode?: number;
  /** Fail instead of replacing an existing file (used for new session files). */
  exclusive?: boolean;
}

/**
 * Writes a file so that a reader (or a crash) only ever sees the old or the new content (R-HOME-4):
 * temp file in the target's folder, fsync, rename over the target. A symlink is followed, never replaced.
 */
export async function writeFileAtomic(
  link: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  // A symlinked file (dotfiles managers link config.json) is written where it points; the link stays.
  const file = await linkTarget(link);
  const dir = path.dirname(file);
  const mode = (await existingMode(file)) ?? options.mode ?? 0o600;
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (options.exclusive) {
      // link() fails with EEXIST instead of replacing: no overwrite, still never a half-written file.
      await fs.link(temp, file);
      await fs.unlink(temp);
    } else {
      await fs.rename(temp, file);
    }
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
}

/** Where a path leads: its final target for a symlink (a dangling one included), itself otherwise. */
async function linkTarget(file: string): Promise<string> {
  try {
    return await fs.realpath(file);
  } catch {
    try {
      return path.resolve(path.dirname(file), await fs.readlink(file));
    } catch {
      return file; // not there yet, or not a link
    }
  }
}

async function existingMode(file: string): Promise<number | undefined> {
  try {
    return (await fs.stat(file)).mode & 0o777;
  } catch {
    return undefined;
  }
}

async function syncDir(dir: string): Promise<void> {
  // Makes the rename itself durable; not supported on every platform, where it is harmless to skip.
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* Windows cannot open folders for sync */
  }
}
