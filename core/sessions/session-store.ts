import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { SecretRegistry } from '../logging/secrets.js';
import { sessionFileSchema, type SessionFile } from './session-file.js';
import { sessionFileName } from './session-name.js';

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
    }
  | { file: string; name: string; modifiedAt: Date; readable: false; reason: string };

/** Where sessions live. An interface so the engine's tests can use an in-memory store. */
export interface SessionStore {
  /** Creates a new session file named after its first user message; never overwrites (adds `_2`, `_3`, …). */
  create(session: SessionFile, startedAt: Date, firstMessage: string): Promise<string>;
  /** Rewrites an existing session file atomically. */
  save(file: string, session: SessionFile): Promise<void>;
  /** The most recently changed sessions, newest first. */
  list(limit?: number): Promise<SessionListing[]>;
  /** Loads one session for resuming; throws SessionReadError when the file cannot be used. */
  load(file: string): Promise<SessionFile>;
}

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
  /** `secrets`: values never written to a session file, e.g. a key a provider's error quoted. */
  constructor(
    readonly dir: string,
    private readonly secrets?: SecretRegistry,
  ) {}

  async create(session: SessionFile, startedAt: Date, firstMessage: string): Promise<string> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const data = this.serialise(session);
    const named = this.secrets?.redact(firstMessage) ?? firstMessage;
    for (let attempt = 1; ; attempt++) {
      const file = path.join(this.dir, sessionFileName(startedAt, named, attempt));
      try {
        await writeFileAtomic(file, data, { mode: 0o600, exclusive: true });
        return file;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  async save(file: string, session: SessionFile): Promise<void> {
    await writeFileAtomic(file, this.serialise(session), { mode: 0o600 });
  }

  private serialise(session: SessionFile): string {
    return `${JSON.stringify(this.secrets?.redactDeep(session) ?? session, null, 2)}\n`;
  }

  async list(limit = 20): Promise<SessionListing[]> {
    let names: string[];
    try {
      names = (await fs.readdir(this.dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const stats = await Promise.all(
      names.map(async (name) => {
        const file = path.join(this.dir, name);
        return { file, name, modifiedAt: (await fs.stat(file)).mtime };
      }),
    );
    stats.sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime() || b.name.localeCompare(a.name));
    return Promise.all(stats.slice(0, limit).map((entry) => this.describe(entry)));
  }

  async load(file: string): Promise<SessionFile> {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
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

  private async describe(entry: { file: string; name: string; modifiedAt: Date }): Promise<SessionListing> {
    try {
      const session = await this.load(entry.file);
      const firstUser = session.messages.find((m) => m.role === 'user')?.content ?? '';
      const title = firstUser.trim().split('\n')[0]?.slice(0, 60) ?? '';
      return {
        ...entry,
        readable: true,
        startedAt: session.startedAt,
        title,
        messageCount: session.messages.length,
      };
    } catch (error) {
      return {
        ...entry,
        readable: false,
        reason: error instanceof SessionReadError ? error.reason : String(error),
      };
    }
  }
}
