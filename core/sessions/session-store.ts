import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  pooledCalls,
  StartedRewrite,
  writeFileAtomic,
  writeNewFile,
  type FileCalls,
} from '../fs/atomic-write.js';
import type { SecretRegistry } from '../logging/secrets.js';
import { sessionFileSchema, type SessionFile, type SessionMessage } from './session-file.js';
import { SessionIndex, type IndexedSession } from './session-index.js';
import { sessionFileName, sessionStamp, sessionTitle } from './session-name.js';
import { assetsDir } from './session-assets.js';
import { SessionBytes } from './session-bytes.js';
import { readText } from '../fs/read-text.js';

/** One line of `/sessions`. An unreadable file is listed with its reason and never modified. */
export type SessionListing =
  | {
      file: string;
      name: string;
      modifiedAt: Date;
      readable: true;
      startedAt?: string;
      title: string;
      messageCount: number;
      /** A search's hit: the first line of the session that holds one of the words. */
      match?: string;
    }
  | { file: string; name: string; modifiedAt: Date; readable: false; reason: string };

/** Where sessions live. An interface so the engine's tests can use an in-memory store. */
export interface SessionStore {
  /** Creates a new session file named after its first user message; never overwrites (adds `_2`, `_3`, …). */
  create(session: SessionFile, startedAt: Date, firstMessage: string): Promise<string>;
  /**
   * Rewrites an existing session file atomically; `added`: the messages this write added (the rest is as before).
   * Writes of one file run in order, each begun once the event loop has turned (the prompt is drawn first); a
   * save not begun yet takes a newer one's state instead, so the newest state is written once.
   */
  save(file: string, session: SessionFile, added?: SessionMessage[]): Promise<void>;
  /**
   * A question was sent: `file` is rewritten with it and `unanswered` (what stands for its answer until one comes),
   * so a crash keeps it; the next save, begun meanwhile with the session as it will start, then writes only what
   * the answer adds. Never awaited by the caller: writes of one file run in order. Another prepareSave replaces it.
   */
  prepareSave?(file: string, session: SessionFile, unanswered: SessionMessage): void;
  /** The save prepared for `file` will not come (a turn failed or was cancelled): the file stays as it is. */
  dropPreparedSave?(file: string): Promise<void>;
  /** The most recently changed sessions, newest first. */
  list(limit?: number): Promise<SessionListing[]>;
  /** The sessions whose messages hold every word (case-insensitive, any script), newest first, with the line. */
  search(words: string[], limit?: number): Promise<SessionListing[]>;
  /** Loads one session for resuming; throws SessionReadError when the file cannot be used. */
  load(file: string): Promise<SessionFile>;
  /** Gives a session a title: the file takes its name (same start time), its pictures follow; the new path. */
  rename(file: string, session: SessionFile, title: string): Promise<string>;
  /** Moves a session (and its pictures) to `sessions/.trash/`, where it stays 30 days. */
  trash(file: string): Promise<void>;
  /** Resolves once every write begun so far has ended. */
  flush?(): Promise<void>;
}

/** How long a deleted session waits in `sessions/.trash/` before it is gone. */
export const TRASH_DAYS = 30;

/** A session file that does not parse or validate. The file is left as it is. */
export class SessionReadError extends Error {
  override readonly name = 'SessionReadError';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file} cannot be read: ${reason}. The file was left unchanged.`);
  }
}

/** Session files in `sessions/`. */
export class FileSessionStore implements SessionStore {
  private readonly index: SessionIndex;
  private readonly bytes: SessionBytes;
  /** Saves begun by prepareSave, by file, with the folder's time from before their temp file appeared. */
  private readonly prepared = new Map<string, Promise<{ rewrite: StartedRewrite; before: number }>>();
  /** The last write of each file under way: the next one starts after it, so an older state never lands last. */
  private readonly writing = new Map<string, Promise<unknown>>();
  /** The save of each file not begun yet: a newer save takes its place. */
  private readonly waiting = new Map<
    string,
    { session: SessionFile; added?: SessionMessage[]; done: Promise<void> }
  >();

  /**
   * `secrets`: values never written to a session file, e.g. a key a provider's error quoted. `calls`: how a new
   * session file is written (`blockingCalls` for a run with nothing else to do meanwhile).
   */
  constructor(
    readonly dir: string,
    private readonly secrets?: SecretRegistry,
    private readonly calls: FileCalls = pooledCalls,
  ) {
    this.index = new SessionIndex(dir, (file) => this.load(file));
    this.bytes = new SessionBytes(secrets);
  }

  async create(session: SessionFile, startedAt: Date, firstMessage: string): Promise<string> {
    await this.calls.mkdir(this.dir, 0o700);
    const data = this.bytes.encode(session);
    const named = this.secrets?.redact(firstMessage) ?? firstMessage;
    const before = await this.index.folderTime();
    // Two sessions started in the same second with the same first words: `_2`, `_3`… (written once, linked
    // under the first free name).
    const file = await writeNewFile(
      (attempt) => path.join(this.dir, sessionFileName(startedAt, named, attempt)),
      data,
      0o600,
      this.calls,
    );
    await this.index.noteWrite(file, this.bytes.redacted(session), before);
    return file;
  }

  save(file: string, session: SessionFile, added?: SessionMessage[]): Promise<void> {
    const waiting = this.waiting.get(file);
    if (waiting) {
      // Not begun yet: it writes this newer state instead, and what both added (unknown if either is).
      waiting.added = waiting.added && added && [...waiting.added, ...added];
      waiting.session = session;
      return waiting.done;
    }
    // The rewrite begun with the question is this save's from now on: the turn's end no longer drops it.
    const prepared = this.takePrepared(file);
    const save = { session, added, done: Promise.resolve() };
    this.waiting.set(file, save);
    save.done = this.inOrder(file, async () => {
      // Encoding a long session takes milliseconds of the main thread: after the prompt is drawn, not before.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.waiting.get(file) === save) this.waiting.delete(file);
      await this.write(file, save.session, save.added, await prepared);
    });
    return save.done;
  }

  /** Every write begun so far, of every file, has ended (how hac leaves: nothing it was told is lost). */
  async flush(): Promise<void> {
    while (this.writing.size)
      await Promise.all([...this.writing.values()].map((w) => w.catch(() => undefined)));
  }

  prepareSave(file: string, session: SessionFile, unanswered: SessionMessage): void {
    void this.dropPreparedSave(file);
    const question = session.messages.slice(-1);
    const head = this.bytes.head(session);
    let begin: (rewrite: { rewrite: StartedRewrite; before: number }) => void = () => undefined;
    this.prepared.set(file, new Promise((resolve) => (begin = resolve)));
    // A save waiting before this question may no longer take newer states: they would land before the question.
    this.waiting.delete(file);
    const written = this.inOrder(file, async () => {
      // The question first, whole and atomic; the answer's rewrite begins once it is on disk.
      try {
        await this.write(file, { ...session, messages: [...session.messages, unanswered] }, question);
      } finally {
        // The folder's time is read before the temp file changes it: the index then stays trusted after the save.
        const before = await this.index.folderTime().catch(() => -1);
        begin({ before, rewrite: new StartedRewrite(file, head, 0o600) });
      }
    });
    // A question that could not be written still gets its answer, whose save reports the problem.
    written.catch(() => undefined);
  }

  private async write(
    file: string,
    session: SessionFile,
    added?: SessionMessage[],
    prepared?: { rewrite: StartedRewrite; before: number },
  ): Promise<void> {
    const before = prepared?.before ?? (await this.index.folderTime());
    const data = this.bytes.encode(session);
    await (prepared ? prepared.rewrite.finish(data) : writeFileAtomic(file, data, { mode: 0o600 }));
    const redacted = this.bytes.redacted(session);
    await this.index.noteWrite(file, redacted, before, added && this.bytes.redactedMessages(added));
  }

  /** Runs a write of `file` after the one before it, whatever became of that one. */
  private inOrder<T>(file: string, work: () => Promise<T>): Promise<T> {
    const next = (this.writing.get(file) ?? Promise.resolve()).catch(() => undefined).then(work);
    this.writing.set(file, next);
    const forget = () => {
      if (this.writing.get(file) === next) this.writing.delete(file);
    };
    next.then(forget, forget);
    return next;
  }

  /** Every write of `file` begun so far has ended. */
  private async settled(file: string): Promise<void> {
    await this.writing.get(file)?.catch(() => undefined);
  }

  async dropPreparedSave(file: string): Promise<void> {
    await (await this.takePrepared(file))?.rewrite.discard();
  }

  private takePrepared(file: string) {
    const prepared = this.prepared.get(file);
    this.prepared.delete(file);
    return prepared;
  }

  async list(limit = 20): Promise<SessionListing[]> {
    return (await this.index.sessions()).slice(0, limit).map((s) => this.listing(s));
  }

  async rename(file: string, session: SessionFile, title: string): Promise<string> {
    const stamp = /^\d{8}_\d{6}/.exec(path.basename(file))?.[0] ?? sessionStamp(new Date());
    const named: SessionFile = { ...session, title };
    // The title goes into the file, then the file takes its name: one file at every moment, never two.
    await this.save(file, named);
    const name = sessionTitle(this.secrets?.redact(title) ?? title);
    for (let attempt = 1; ; attempt++) {
      const next = path.join(this.dir, `${stamp}_${name}${attempt > 1 ? `_${attempt}` : ''}.json`);
      if (next === file) return file;
      if (await fs.stat(next).catch(() => undefined)) continue; // another session's name
      const before = await this.index.folderTime();
      await fs.rename(file, next);
      await fs.rename(assetsDir(file), assetsDir(next)).catch(() => undefined);
      await this.index.noteRemoved(path.basename(file), before);
      await this.index.noteWrite(
        next,
        this.secrets?.redactDeep(named) ?? named,
        await this.index.folderTime(),
      );
      return next;
    }
  }

  async trash(file: string): Promise<void> {
    await this.settled(file);
    const trash = path.join(this.dir, '.trash');
    await fs.mkdir(trash, { recursive: true, mode: 0o700 });
    const before = await this.index.folderTime();
    const name = path.basename(file);
    await fs.rename(file, path.join(trash, name));
    await fs.rename(assetsDir(file), assetsDir(path.join(trash, name))).catch(() => undefined);
    await this.index.noteRemoved(name, before);
    await this.emptyTrash(trash);
  }

  /** What has waited in the trash longer than TRASH_DAYS goes for good. */
  private async emptyTrash(trash: string): Promise<void> {
    const cutoff = Date.now() - TRASH_DAYS * 86_400_000;
    for (const name of await fs.readdir(trash)) {
      const entry = path.join(trash, name);
      const stat = await fs.stat(entry).catch(() => undefined);
      if (stat && stat.ctimeMs < cutoff) await fs.rm(entry, { recursive: true, force: true });
    }
  }

  async search(words: string[], limit = 20): Promise<SessionListing[]> {
    const matching = (await this.index.search(words)).slice(0, limit);
    return Promise.all(
      matching.map(async (s) => ({ ...this.listing(s), ...(await this.matchLine(s, words)) })),
    );
  }

  /** The first line of the session (read from its file, which wins over the index) that holds one of the words. */
  private async matchLine(s: IndexedSession, words: string[]): Promise<{ match?: string }> {
    const lower = words.map((w) => w.toLowerCase());
    try {
      const session = await this.load(path.join(this.dir, s.name));
      for (const message of session.messages)
        for (const line of message.content.split('\n')) {
          const at = lower.map((w) => line.toLowerCase().indexOf(w)).find((i) => i >= 0);
          if (at !== undefined) return { match: excerpt(line, at) };
        }
    } catch {
      // listed without its line
    }
    return {};
  }

  private listing(s: IndexedSession): SessionListing {
    const base = { file: path.join(this.dir, s.name), name: s.name, modifiedAt: new Date(s.mtimeMs) };
    if (s.unreadable !== undefined) return { ...base, readable: false, reason: s.unreadable };
    return {
      ...base,
      readable: true,
      title: s.title,
      messageCount: s.messageCount,
      ...(s.startedAt ? { startedAt: s.startedAt } : {}),
    };
  }

  async load(file: string): Promise<SessionFile> {
    let text: string;
    try {
      text = await readText(file);
    } catch (error) {
      throw new SessionReadError(file, (error as Error).message);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new SessionReadError(file, `invalid JSON (${(error as Error).message})`);
    }
    const parsed = sessionFileSchema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new SessionReadError(file, `${first?.path.join('.') || 'file'}: ${first?.message ?? 'invalid'}`);
    }
    return parsed.data;
  }
}

/** About 80 characters of a line around where a word was found. */
function excerpt(line: string, at: number): string {
  const chars = [...line.trim()];
  const start = Math.max(0, Math.min(at - 20, chars.length - 80));
  const text = chars.slice(start, start + 80).join('');
  return `${start > 0 ? '…' : ''}${text}${start + 80 < chars.length ? '…' : ''}`;
}
