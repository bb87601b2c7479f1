import type { Logger } from '../logging/logger.js';
import { rfc3339Local, type SessionFile, type SessionMessage } from '../sessions/session-file.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { Message, MessageImage, Usage } from '../types/message.js';
import { imageRecord, loadSessionImages, saveSessionImages } from '../sessions/session-assets.js';
import { newContextSession, type ContextSessionState, type ContextSummary } from './context/index.js';

/** One answered turn, as kept: the user message and the final answer only. */
export interface CompletedTurn {
  user: string;
  /** Pictures sent with the user message. */
  images?: MessageImage[];
  answer: string;
  askedAt: Date;
  answeredAt: Date;
  model: string;
  usage?: Usage;
  summary?: ContextSummary;
}

/**
 * The conversation kept between turns, and its session file: the file appears with the first
 * answered turn and is rewritten after each one. Failed, cancelled and declined turns never reach it.
 */
/** A tool call's result as `/tool` shows it again. */
export interface ToolResultView {
  summary: string;
  output: string;
}

/** How many results `/tool` keeps: the last 20. */
const KEPT_TOOL_RESULTS = 20;

export class Conversation {
  private messages: Message[] = [];
  private results: ToolResultView[] = [];
  private file: string | undefined;
  private session: SessionFile | undefined;
  contextState: ContextSessionState = newContextSession();

  constructor(
    private readonly store: SessionStore,
    private readonly logger: Logger,
  ) {}

  /** The context sent to the model: earlier users messages and final answers, oldest first. */
  get history(): readonly Message[] {
    return this.messages;
  }

  /** The last tool results of this conversation, newest first. */
  get toolResults(): readonly ToolResultView[] {
    return this.results;
  }

  noteToolResult(result: ToolResultView): void {
    this.results = [{ summary: result.summary, output: result.output }, ...this.results].slice(
      0,
      KEPT_TOOL_RESULTS,
    );
  }

  get sessionFile(): string | undefined {
    return this.file;
  }

  /** `/new`: forget the conversation; the next answered message starts a new file. */
  reset(): void {
    this.messages = [];
    this.file = undefined;
    this.session = undefined;
    this.contextState = newContextSession();
  }

  /** `/resume`: continue a session file in place. Throws SessionReadError and changes nothing on a bad file. */
  async resume(file: string): Promise<number> {
    const session = await this.store.load(file);
    this.messages = await Promise.all(session.messages.map((m) => this.resumedMessage(file, m)));
    this.file = file;
    this.session = session;
    const latest = session.summaries?.at(-1);
    const summary =
      latest?.covers !== undefined ? { text: latest.content, covers: latest.covers } : undefined;
    this.contextState = newContextSession(
      summary && summary.covers <= this.messages.length ? summary : undefined,
    );
    this.logger.info(`Resumed session ${file} (${this.messages.length} messages).`);
    return this.messages.length;
  }

  /** A message of a session file as the context holds it; pictures read back from beside the session. */
  private async resumedMessage(file: string, message: SessionMessage): Promise<Message> {
    if (message.role === 'assistant' || !message.images?.length)
      return { role: message.role, content: message.content };
    const { images, missing } = await loadSessionImages(file, message.images);
    if (missing.length) this.logger.warn(`Session ${file}: image copies missing: ${missing.join(', ')}`);
    const placeholders = missing.map((name) => `[image not found beside the session: ${name}]`);
    return {
      role: 'user',
      content: [message.content, ...placeholders].filter(Boolean).join('\n'),
      ...(images.length ? { images } : {}),
    };
  }

  /** Keeps an answered turn and writes the session file. Resolves with the file written. */
  async record(turn: CompletedTurn): Promise<string> {
    const images = turn.images ?? [];
    const user: SessionMessage = {
      role: 'user',
      content: turn.user,
      createdAt: rfc3339Local(turn.askedAt),
      ...(images.length ? { images: images.map((image) => ({ ...imageRecord(image) })) } : {}),
    };
    const answer: SessionMessage = {
      role: 'assistant',
      content: turn.answer,
      createdAt: rfc3339Local(turn.answeredAt),
      model: turn.model,
      ...(turn.usage ? { usage: turn.usage } : {}),
    };
    this.messages = [
      ...this.messages,
      { role: 'user', content: turn.user, ...(images.length ? { images } : {}) },
      { role: 'assistant', content: turn.answer },
    ];
    const session: SessionFile = this.session ?? {
      version: 1,
      startedAt: rfc3339Local(turn.askedAt),
      model: turn.model,
      messages: [],
    };
    session.model = turn.model;
    session.messages = [...session.messages, user, answer];
    if (turn.summary) {
      session.summaries = [
        ...(session.summaries ?? []),
        { content: turn.summary.text, covers: turn.summary.covers, createdAt: rfc3339Local(turn.answeredAt) },
      ];
    }
    this.session = session;
    if (this.file) {
      await this.store.save(this.file, session, [user, answer]);
    } else {
      this.file = await this.store.create(session, turn.askedAt, turn.user);
      this.logger.info(`Session file created: ${this.file}`);
    }
    await saveSessionImages(this.file, images);
    return this.file;
  }
}
