import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { SessionFile, SessionMessage } from './session-file.js';
import { readText } from '../fs/read-text.js';

/** What `/sessions` shows of one file, kept in the index so a listing reads one small file instead of all. */
export interface IndexedSession {
  name: string;
  mtimeMs: number;
  size: number;
  title: string;
  messageCount: number;
  startedAt?: string;
  /** Why the file cannot be read (it is listed, never changed). */
  unreadable?: string;
}

/** What a session file holds, as the index needs it: read by the store, which knows the format. */
export type ReadSession = (file: string) => Promise<SessionFile>;

const INDEX_DIR = '.index';

/** The folder of the sessions' index, inside the sessions folder. */
export function sessionIndexDir(sessionsDir: string): string {
  return path.join(sessionsDir, INDEX_DIR);
}
const LIST = 'list.ndjson';
const TEXT = 'text.txt';

/**
 * A small index beside the sessions, so that `/sessions` and a search stay fast with thousands of files: one line
 * per listing in `list.ndjson` (the newest last) and the searchable text in `text.txt` (`name\tR|+\ttext`, R: all
 * the session's text, +: what a write added). hac appends to it after each write it makes; each line also records
 * the folder's modification time after that write, so the index is trusted only while the folder has not changed
 * since (every session write renames a file into it). Anything else (a file removed by hand, another program, a
 * torn line) makes it stale, and it is rebuilt from the files, which always win.
 */
export class SessionIndex {
  private readonly indexDir: string;

  constructor(
    private readonly dir: string,
    private readonly read: ReadSession,
  ) {
    this.indexDir = sessionIndexDir(dir);
  }

  /** The folder's modification time now: taken before a write, to tell whether the index was fresh then. */
  async folderTime(): Promise<number> {
    return (await fs.stat(this.dir)).mtimeMs;
  }

  /**
   * After hac wrote `file`: its listing, and the text it added (`added`) or all of it. `before`: the folder's time
   * right before the write; the index stays trusted only if it was trusted then.
   */
  async noteWrite(
    file: string,
    session: SessionFile,
    before: number,
    added?: SessionMessage[],
  ): Promise<void> {
    if (!(await exists(this.indexDir))) return; // built on first use
    const [stat, after, last] = await Promise.all([fs.stat(file), this.folderTime(), this.lastFolderTime()]);
    const name = path.basename(file);
    const entry: IndexedSession = { name, mtimeMs: stat.mtimeMs, size: stat.size, ...summary(session) };
    const text = added ? searchText(added) : searchText(session.messages, titleOf(session));
    await fs.appendFile(path.join(this.indexDir, TEXT), `${name}\t${added ? '+' : 'R'}\t${text}\n`);
    await fs.appendFile(
      path.join(this.indexDir, LIST),
      `${JSON.stringify({ ...entry, folder: last === before ? after : -1 })}\n`,
    );
  }

  /** After hac removed or renamed away `name`. */
  async noteRemoved(name: string, before: number): Promise<void> {
    if (!(await exists(this.indexDir))) return;
    const [after, last] = await Promise.all([this.folderTime(), this.lastFolderTime()]);
    await fs.appendFile(
      path.join(this.indexDir, LIST),
      `${JSON.stringify({ name, removed: true, folder: last === before ? after : -1 })}\n`,
    );
  }

  /** Every session, newest first (rebuilt first when stale). */
  async sessions(): Promise<IndexedSession[]> {
    return newestFirst(await this.fresh());
  }

  /**
   * The sessions whose text holds every word (case-insensitive, anywhere inside longer text, any script), newest
   * first. Read from the index's text: one pass per word over it, never the files.
   */
  async search(words: string[]): Promise<IndexedSession[]> {
    const sessions = await this.fresh();
    const live = new Set(sessions.map((s) => s.name));
    const text = await readText(path.join(this.indexDir, TEXT)).catch(() => '');
    // Where each line starts, whose it is, and where each session's text starts over (its last R line).
    const lineName = new Map<number, string>();
    const textStart = new Map<number, number>();
    const since = new Map<string, number>();
    for (let at = 0; at < text.length;) {
      const end = text.indexOf('\n', at);
      const stop = end === -1 ? text.length : end;
      const tab = text.indexOf('\t', at);
      if (tab > at && tab < stop) {
        const name = text.slice(at, tab);
        lineName.set(at, name);
        textStart.set(at, tab + 3);
        if (text.charAt(tab + 1) === 'R') since.set(name, at);
      }
      at = stop + 1;
    }
    let found: Set<string> | undefined;
    for (const word of words.map((w) => w.toLowerCase()).filter(Boolean)) {
      const names = new Set<string>();
      // Each line is looked at once per word: after a hit, the search goes on from the next line.
      for (let hit = text.indexOf(word); hit !== -1;) {
        const start = text.lastIndexOf('\n', hit) + 1;
        const end = text.indexOf('\n', hit);
        const stop = end === -1 ? text.length : end;
        const name = lineName.get(start);
        const from = textStart.get(start) ?? stop;
        const inText = hit >= from || text.slice(from, stop).includes(word);
        if (name !== undefined && inText && start >= (since.get(name) ?? Infinity) && live.has(name))
          if (!found || found.has(name)) names.add(name);
        hit = end === -1 ? -1 : text.indexOf(word, stop + 1);
      }
      found = names;
    }
    return newestFirst(found ? sessions.filter((s) => found.has(s.name)) : sessions);
  }

  /** The listings, from the index while it is fresh, else rebuilt from the files. */
  private async fresh(): Promise<IndexedSession[]> {
    const now = await this.folderTime().catch(() => undefined);
    if (now === undefined) return [];
    const listed = await this.readList();
    if (listed && listed.folder === now) return [...listed.entries.values()];
    return this.rebuild(listed?.entries ?? new Map<string, IndexedSession>());
  }

  /** Reads every file whose time or size the index does not know, and writes the index afresh. */
  private async rebuild(known: Map<string, IndexedSession>): Promise<IndexedSession[]> {
    // The index's own folder first: making it changes the sessions folder's time, which is recorded after.
    await fs.mkdir(this.indexDir, { recursive: true, mode: 0o700 });
    const folder = await this.folderTime();
    const names = (await fs.readdir(this.dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    const oldText = await readText(path.join(this.indexDir, TEXT)).catch(() => '');
    const kept = liveLines(oldText);
    const entries: IndexedSession[] = [];
    const text: string[] = [];
    for (let i = 0; i < names.length; i += 64) {
      await Promise.all(
        names.slice(i, i + 64).map(async (name) => {
          const file = path.join(this.dir, name);
          const stat = await fs.stat(file).catch(() => undefined);
          if (!stat) return;
          const old = known.get(name);
          const lines = kept.get(name);
          if (old && old.mtimeMs === stat.mtimeMs && old.size === stat.size && (lines || old.unreadable)) {
            entries.push(old);
            if (lines) text.push(...lines);
            return;
          }
          const base = { name, mtimeMs: stat.mtimeMs, size: stat.size };
          try {
            const session = await this.read(file);
            entries.push({ ...base, ...summary(session) });
            text.push(`${name}\tR\t${searchText(session.messages, titleOf(session))}`);
          } catch (error) {
            entries.push({ ...base, title: '', messageCount: 0, unreadable: (error as Error).message });
          }
        }),
      );
    }
    entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
    await writeFileAtomic(path.join(this.indexDir, TEXT), text.length ? `${text.join('\n')}\n` : '', {
      mode: 0o600,
    });
    const lines = entries.map((e, i) => JSON.stringify(i === entries.length - 1 ? { ...e, folder } : e));
    await writeFileAtomic(path.join(this.indexDir, LIST), lines.length ? `${lines.join('\n')}\n` : '', {
      mode: 0o600,
    });
    // Written with no session at all, the folder's time must still be recorded: an empty marker line.
    if (!entries.length)
      await fs.appendFile(path.join(this.indexDir, LIST), `${JSON.stringify({ folder })}\n`);
    return entries;
  }

  /** The index's listings (later lines win) and the folder time its last line recorded; undefined if none. */
  private async readList(): Promise<{ entries: Map<string, IndexedSession>; folder: number } | undefined> {
    let raw: string;
    try {
      raw = await readText(path.join(this.indexDir, LIST));
    } catch {
      return undefined;
    }
    const entries = new Map<string, IndexedSession>();
    let folder = -1;
    for (const line of raw.split('\n')) {
      if (!line) continue;
      let parsed: Partial<IndexedSession> & { folder?: number; removed?: boolean };
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        return { entries, folder: -1 }; // a torn line: rebuild
      }
      folder = typeof parsed.folder === 'number' ? parsed.folder : folder;
      if (!parsed.name) continue;
      if (parsed.removed) entries.delete(parsed.name);
      else entries.set(parsed.name, { ...(parsed as IndexedSession) });
      delete (entries.get(parsed.name) as { folder?: number } | undefined)?.folder;
    }
    return { entries, folder };
  }

  /** The folder time the index's last line recorded (-1: unknown); reads only the end of the file. */
  private async lastFolderTime(): Promise<number> {
    const raw = await readTail(path.join(this.indexDir, LIST), 8192);
    const last = raw.trimEnd().split('\n').at(-1);
    try {
      const folder = (JSON.parse(last ?? '') as { folder?: unknown }).folder;
      return typeof folder === 'number' ? folder : -1;
    } catch {
      return -1;
    }
  }
}

/** What a conversation is called wherever it is named: the title given it, else its first question's first line. */
export function conversationTitle(session: SessionFile): string {
  const first = session.messages.find((m) => m.role === 'user')?.content ?? '';
  const title =
    typeof session.title === 'string' && session.title ? session.title : first.trim().split('\n')[0];
  return title?.slice(0, 60) ?? '';
}

/** A session's listing: its title (the first line of its first message), message count and start. */
function summary(session: SessionFile): Pick<IndexedSession, 'title' | 'messageCount' | 'startedAt'> {
  return {
    title: conversationTitle(session),
    messageCount: session.messages.length,
    ...(session.startedAt ? { startedAt: session.startedAt } : {}),
  };
}

function titleOf(session: SessionFile): string {
  return typeof session.title === 'string' ? session.title : '';
}

/** Messages as one line of searchable text: lower case, line breaks and tabs as spaces. */
function searchText(messages: readonly SessionMessage[], title = ''): string {
  return [title, ...messages.map((m) => m.content)]
    .join(' ')
    .toLowerCase()
    .replace(/[\t\r\n]+/g, ' ');
}

/** The lines of each session that still count: from its last R line on. */
function liveLines(text: string): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const name = line.slice(0, tab);
    if (line.charAt(tab + 1) === 'R') lines.set(name, [line]);
    else lines.get(name)?.push(line);
  }
  return lines;
}

/** The last `bytes` of a file as text ('' when it cannot be read). */
async function readTail(file: string, bytes: number): Promise<string> {
  const handle = await fs.open(file, 'r').catch(() => undefined);
  if (!handle) return '';
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

function newestFirst(sessions: IndexedSession[]): IndexedSession[] {
  return sessions.sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name));
}
