import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  promises as fs,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileAccessError } from './file-access.js';

const WINDOWS = process.platform === 'win32';

export interface AtomicWriteOptions {
  /** File mode for a file that does not exist yet; an existing file keeps its mode. */
  mode?: number;
  /** Fail instead of replacing an existing file (`writeNewFile` tries further names). */
  exclusive?: boolean;
}

/** The content, or its pieces in order (written one after another, never joined into one copy). */
type Content = string | Uint8Array | readonly Uint8Array[];

/**
 * The file system calls that write a new file. `pooledCalls` makes each in Node's thread pool, as every async
 * call does. `blockingCalls` makes them on the calling thread, for a process with nothing else to do meanwhile
 * (`hac -p` writing its session before it exits): there, each call's trip through the pool and back through the
 * event loop costs more than the call itself, and a new file takes about ten calls in a row.
 */
export interface FileCalls {
  mkdir(dir: string, mode: number): Promise<unknown>;
  /** Creates `file` (never an existing one) holding `data`, synced; a failure leaves no file behind. */
  createSynced(file: string, data: Content, mode: number): Promise<void>;
  link(existing: string, file: string): Promise<void>;
  unlink(file: string): Promise<void>;
  /** Makes the folder's entries durable (a rename or link in it); where folders cannot be synced, nothing. */
  syncDir(dir: string): Promise<void>;
}

export const pooledCalls: FileCalls = {
  mkdir: (dir, mode) => fs.mkdir(dir, { recursive: true, mode }),
  async createSynced(file, data, mode) {
    const handle = await fs.open(file, 'wx', mode);
    try {
      if (Array.isArray(data)) await writePieces(handle, data);
      else await handle.writeFile(data as string | Uint8Array);
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await fs.rm(file, { force: true }).catch(() => undefined);
      throw error;
    }
    await handle.close();
  },
  link: (existing, file) => fs.link(existing, file),
  unlink: (file) => fs.unlink(file),
  async syncDir(dir) {
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
  },
};

export const blockingCalls: FileCalls = {
  mkdir: (dir, mode) => settled(() => mkdirSync(dir, { recursive: true, mode })),
  createSynced: (file, data, mode) =>
    settled(() => {
      const fd = openSync(file, 'wx', mode);
      try {
        writeFileSync(fd, Array.isArray(data) ? Buffer.concat(data) : (data as string | Uint8Array));
        fsyncSync(fd);
      } catch (error) {
        closeSync(fd);
        rmSync(file, { force: true });
        throw error;
      }
      closeSync(fd);
    }),
  link: (existing, file) => settled(() => linkSync(existing, file)),
  unlink: (file) => settled(() => unlinkSync(file)),
  syncDir: (dir) =>
    settled(() => {
      try {
        const fd = openSync(dir, 'r');
        try {
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      } catch {
        /* Windows cannot open folders for sync */
      }
    }),
};

/** A blocking call as a promise: its result, or its error as the rejection. */
function settled<T>(call: () => T): Promise<T> {
  return new Promise((resolve) => resolve(call()));
}

/**
 * Writes a file so that a reader (or a crash) only ever sees the old or the new content:
 * temp file in the target's folder, fsync, rename over the target. A symlink is followed, never replaced.
 */
export async function writeFileAtomic(
  link: string,
  data: Content,
  options: AtomicWriteOptions = {},
): Promise<void> {
  if (options.exclusive) {
    await writeNewFile((attempt) => (attempt === 1 ? link : undefined), data, options.mode);
    return;
  }
  // A symlinked file (dotfiles managers link config.json) is written where it points; the link stays.
  const file = await linkTarget(link);
  const mode = (await existingMode(file)) ?? options.mode ?? 0o600;
  const temp = await writeTemp(file, data, mode, link);
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw fileAccessError(error, link, 'write');
  }
  await pooledCalls.syncDir(path.dirname(file));
}

/**
 * Writes a new file, never replacing one, under `name(1)` or, while that exists, `name(2)`, `name(3)`…: the
 * content is written and synced once, then linked under each name in turn until one is free (link() refuses an
 * existing name, so two writers can never take the same one). Resolves with the name it got; when `name` has no
 * more to offer, fails with the last EEXIST.
 */
export async function writeNewFile(
  name: (attempt: number) => string | undefined,
  data: Content,
  mode = 0o600,
  calls = pooledCalls,
): Promise<string> {
  const first = name(1)!;
  const temp = await writeTemp(first, data, mode, first, calls);
  // One system call, where fs.rm looks the path up first; a temp name left behind is removed at the next start.
  const removeTemp = () => calls.unlink(temp).catch(() => undefined);
  let taken: NodeJS.ErrnoException | undefined;
  let file: string | undefined;
  try {
    for (let attempt = 1; (file = name(attempt)) !== undefined; attempt++) {
      try {
        await calls.link(temp, file);
        break;
      } catch (error) {
        taken = error as NodeJS.ErrnoException;
        if (taken.code !== 'EEXIST') throw fileAccessError(error, file, 'write');
      }
    }
  } catch (error) {
    await removeTemp();
    throw error;
  }
  if (file === undefined) {
    await removeTemp();
    throw taken!;
  }
  // The new name is synced while the temp name goes (the last thing `hac -p` waits for before it exits).
  await Promise.all([removeTemp(), calls.syncDir(path.dirname(file))]);
  return file;
}

/**
 * A rewrite of a file begun before all of its content is known (a session file while the answer is still coming):
 * the content as it stands is written to the temp file and synced at once, while the caller waits for the rest, so
 * that `finish` only writes what differs from it and syncs that. Readers see the old file until `finish` renames
 * the temp over it, as with writeFileAtomic. Started and then neither finished nor discarded (a killed process),
 * the temp file is one removeStaleTempFiles removes.
 */
export class StartedRewrite {
  private readonly begun: Promise<{ file: string; temp: string; handle: fs.FileHandle } | undefined>;

  constructor(
    private readonly link: string,
    private readonly start: readonly Uint8Array[],
    mode = 0o600,
  ) {
    this.begun = this.begin(mode).catch(() => undefined); // finish() then writes it all, and reports what fails
  }

  private async begin(mode: number) {
    const file = await linkTarget(this.link);
    const temp = path.join(path.dirname(file), tempName(path.basename(file)));
    const handle = await fs.open(temp, 'wx', (await existingMode(file)) ?? mode);
    try {
      await writePieces(handle, this.start);
      await handle.datasync();
      return { file, temp, handle };
    } catch (error) {
      await handle.close().catch(() => undefined);
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  /** Replaces the file with `pieces`: what they share with the start at its beginning is not written again. */
  async finish(pieces: readonly Uint8Array[]): Promise<void> {
    const begun = await this.begun;
    if (!begun) return writeFileAtomic(this.link, pieces);
    const { file, temp, handle } = begun;
    let same = 0;
    let offset = 0;
    for (; same < Math.min(pieces.length, this.start.length); same++) {
      const [piece, started] = [pieces[same]!, this.start[same]!];
      if (piece !== started && !Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).equals(started))
        break;
      offset += piece.byteLength;
    }
    // The old file's pages are freed when its last reference goes, in the rename (about a millisecond per MB):
    // held open across it, they are freed by the close afterwards, off the caller's path. (Not on Windows, where
    // an open file may refuse to be replaced.)
    const old = WINDOWS ? undefined : await fs.open(file, 'r').catch(() => undefined);
    try {
      const rest = pieces.slice(same);
      await writePieces(handle, rest, offset);
      await handle.truncate(offset + rest.reduce((n, piece) => n + piece.byteLength, 0));
      await handle.sync();
      await handle.close();
      await fs.rename(temp, file);
    } catch {
      // The temp file may be gone (another hac removes one left an hour, and a turn can wait that long for a
      // yes or no): written whole instead, which reports a real failure with the file's path.
      await handle.close().catch(() => undefined);
      await fs.rm(temp, { force: true }).catch(() => undefined);
      return writeFileAtomic(this.link, pieces);
    } finally {
      void old?.close().catch(() => undefined);
    }
    await pooledCalls.syncDir(path.dirname(file));
  }

  /** Drops the rewrite: the file stays as it is, the temp file goes. */
  async discard(): Promise<void> {
    const begun = await this.begun;
    if (!begun) return;
    await begun.handle.close().catch(() => undefined);
    await fs.rm(begun.temp, { force: true }).catch(() => undefined);
  }
}

/** Writes `data` to a new temp file beside `file` and syncs it; a failure leaves no temp file behind. */
async function writeTemp(
  file: string,
  data: Content,
  mode: number,
  shown: string,
  calls = pooledCalls,
): Promise<string> {
  const temp = path.join(path.dirname(file), tempName(path.basename(file)));
  try {
    await calls.createSynced(temp, data, mode);
    return temp;
  } catch (error) {
    throw fileAccessError(error, shown, 'write');
  }
}

/**
 * `.<name>.<pid>.<8 hex>.tmp`: the pid says whether the writer is still alive (see removeStaleTempFiles). The pid
 * and the random part keep writers apart, and temp files are opened exclusively, so a clash fails rather than
 * mixing two writes: Math.random is random enough, and node:crypto would cost every start ~5.5 ms to load.
 */
function tempName(base: string): string {
  const random = Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0');
  return `.${base}.${process.pid}.${random}.tmp`;
}

/** Temp files of ours: the name of the file they were for, the writer's pid. */
const TEMP_FILE = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** Where a path leads: its final target for a symlink (a dangling one included), itself otherwise. */
export async function linkTarget(file: string): Promise<string> {
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

/**
 * Removes the temp files a killed writer left in `dirs`: ours by name, and owned by no live process
 * (the pid in the name is gone, or the file is older than an hour, longer than any write of ours). Returns how
 * many were removed; a folder that cannot be read is skipped.
 */
export async function removeStaleTempFiles(dirs: string[], now = Date.now()): Promise<number> {
  let removed = 0;
  for (const dir of dirs) {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const pid = Number(TEMP_FILE.exec(name)?.[2] ?? NaN);
      if (Number.isNaN(pid) || pid === process.pid) continue;
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat?.isFile() || (isAlive(pid) && now - stat.mtimeMs < STALE_AFTER_MS)) continue;
      await fs.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

const STALE_AFTER_MS = 60 * 60 * 1000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/**
 * Writes the pieces in order in one request to the thread pool (libuv splits them into system calls of at most
 * IOV_MAX pieces and finishes short writes itself), at `position` or where the file stands; what a short result
 * leaves is written again.
 */
async function writePieces(
  handle: fs.FileHandle,
  pieces: readonly Uint8Array[],
  position?: number,
): Promise<void> {
  const size = pieces.reduce((n, piece) => n + piece.byteLength, 0);
  let written = (await handle.writev(pieces as Uint8Array[], position)).bytesWritten;
  if (written === size) return;
  const all = Buffer.concat(pieces);
  while (written < size) {
    const at = position === undefined ? null : position + written;
    written += (await handle.write(all, written, size - written, at)).bytesWritten;
  }
}
