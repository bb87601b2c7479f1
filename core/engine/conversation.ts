import type { Logger } from '../logging/logger.js';
import { rfc3339Local, type SessionFile, type SessionMessage } from '../sessions/session-file.js';
import type { SessionStore } from '../sessions/session-store.js';
import { conversationTitle } from '../sessions/session-index.js';
import type { Message, MessageImage, Unanswered, Usage } from '../types/message.js';
import type { ToolCallView } from '../types/engine-event.js';
import { imageRecord, loadSessionImages, saveSessionImages } from '../sessions/session-assets.js';
import { failedNote, NOT_ANSWERED_YET } from './unanswered-notes.js';
import { newContextSession, type ContextSessionState, type ContextSummary } from './context/index.js';

/** A step on the way to an answer: the model's thinking, or a tool call and what it returned. */
export type TurnStep =
  | { thinking: string }
  | {
      tool: {
        server: string;
        name: string;
        arguments: Record<string, unknown>;
        ok: boolean;
        result: string;
        /** The call's view (MCP Apps), kept whole so it can be shown again after a resume. */
        view?: ToolCallView;
      };
    };

/** One answered turn, as kept: the user message and the final answer (what led to it only for `/export`). */
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
  steps?: TurnStep[];
  /** The turn ended without an answer: `answer` says what happened (a declined call, a cancel, an error). */
  unanswered?: Unanswered;
}

/** One exchange as `/retry`, `/edit` and `/rewind` see it. */
export interface Exchange {
  user: string;
  answer: string;
  images?: MessageImage[];
  unanswered?: Unanswered;
}

/** A tool call's result as `/tool` shows it again. */
export interface ToolResultView {
  summary: string;
  output: string;
  /** What the tool returned, when the model was sent only part of it. */
  whole?: string;
}

/** How many results `/tool` keeps: the last 20. */
const KEPT_TOOL_RESULTS = 20;

/**
 * The conversation kept between turns, and its session file: the file appears with the first answered turn and
 * is rewritten after each turn. A turn without an answer (declined, cancelled, failed) keeps its question and a
 * note of what happened, in memory until the first answer creates the file.
 */
export class Conversation {
  private messages: Message[] = [];
  /** Pictures of kept turns that came before the session had a file: they go beside it when it is created. */
  private unsavedImages: MessageImage[] = [];
  private results: ToolResultView[] = [];
  private file: string | undefined;
  private session: SessionFile | undefined;
  /** The answers' saves under way: nobody waits for them but what leaves this file or hac (`settled`). */
  private saving: Promise<void> = Promise.resolve();
  /** Why the last background save failed, until the next turn says so. */
  private saveFailure: string | undefined;
  /** Every step of this run's answers, thinking included, by the answer's place in the session (never saved). */
  private steps = new Map<number, TurnStep[]>();
  contextState: ContextSessionState = newContextSession();
  /** How full the last request was, in percent of contextMaxChars (for `/usage` and the window's gauge). */
  contextPercent: number | undefined;
  /** How far tokens() has counted: the messages' length and last one then, and their tokens. */
  private tokenCount: { length: number; last?: SessionMessage; tokens: number } = { length: 0, tokens: 0 };
  /** The current turn's question as saved (see userMessage). */
  private asked: { at: Date; message: SessionMessage } | undefined;
  private beforeRewind:
    | {
        messages: Message[];
        steps: Map<number, TurnStep[]>;
        contextState: ContextSessionState;
        session?: SessionFile;
      }
    | undefined;

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
    this.results = [result, ...this.results].slice(0, KEPT_TOOL_RESULTS);
  }

  get sessionFile(): string | undefined {
    return this.file;
  }

  /**
   * Every save of this conversation begun so far has ended: what `/new`, `/resume` and every way out of hac wait
   * for, so nothing the user was shown is missing from the file.
   */
  async settled(): Promise<void> {
    await this.saving;
  }

  /** Why a save made after the last turn failed, once (the next turn says it). */
  takeSaveFailure(): string | undefined {
    const failure = this.saveFailure;
    this.saveFailure = undefined;
    return failure;
  }

  /** `/new`: forget the conversation; the next answered message starts a new file. */
  reset(): void {
    this.messages = [];
    this.steps = new Map();
    this.file = undefined;
    this.session = undefined;
    this.unsavedImages = [];
    this.contextState = newContextSession();
    this.contextPercent = undefined;
  }

  /**
   * All answered turns' tokens (the status line's figure, shown after every turn): counted on from where the last
   * count stopped while the session's messages only grew, so a long day does not recount it all each turn.
   */
  tokens(): number {
    const messages = this.session?.messages ?? [];
    let { length, tokens } = this.tokenCount;
    if (length > messages.length || (length > 0 && messages[length - 1] !== this.tokenCount.last)) {
      length = 0;
      tokens = 0;
    }
    for (let i = Math.max(length, 1); i < messages.length; i++) {
      const { role, usage } = messages[i]!;
      if (role === 'assistant' && usage && messages[i - 1]!.role === 'user')
        tokens += usage.inputTokens + usage.outputTokens;
    }
    this.tokenCount = { length: messages.length, last: messages.at(-1), tokens };
    return tokens;
  }

  /** Each answered turn's tokens as its session keeps them (resumed turns included), oldest first. */
  usage(): { user: string; model?: string; usage?: Usage }[] {
    const messages = this.session?.messages ?? [];
    const turns: { user: string; model?: string; usage?: Usage }[] = [];
    for (let i = 1; i < messages.length; i++) {
      const answer = messages[i]!;
      if (answer.role !== 'assistant' || messages[i - 1]!.role !== 'user') continue;
      turns.push({ user: messages[i - 1]!.content, model: answer.model, usage: answer.usage });
    }
    return turns;
  }

  /** What the conversation is called (its title, or its first question); undefined before its first answer. */
  get title(): string | undefined {
    return this.session ? conversationTitle(this.session) : undefined;
  }

  /** The views (MCP Apps) of the tool calls the session keeps, oldest first: a resumed one shows them again. */
  savedViews(): ToolCallView[] {
    const views: ToolCallView[] = [];
    for (const message of this.session?.messages ?? []) {
      const steps: unknown = (message as { steps?: unknown }).steps;
      for (const step of Array.isArray(steps) ? (steps as unknown[]) : []) {
        const view = (step as { tool?: { view?: ToolCallView } } | null)?.tool?.view;
        if (view && typeof view.server === 'string' && typeof view.resourceUri === 'string') views.push(view);
      }
    }
    return views;
  }

  /** `/resume`: continue a session file in place. Throws SessionReadError and changes nothing on a bad file. */
  async resume(file: string): Promise<number> {
    await this.settled();
    const session = await this.store.load(file);
    this.messages = await Promise.all(session.messages.map((m) => this.resumedMessage(file, m)));
    this.file = file;
    // A file from an older hac may hold every summary it wrote; the newest takes in the others.
    const latest = session.summaries?.at(-1);
    if (latest) session.summaries = [latest];
    this.session = session;
    this.steps = new Map();
    this.contextPercent = undefined;
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
    if (message.role === 'assistant')
      return {
        role: 'assistant',
        content: message.content,
        ...(message.status && { unanswered: message.status }),
      };
    if (!message.images?.length) return { role: 'user', content: message.content };
    const { images, missing } = await loadSessionImages(file, message.images);
    if (missing.length) this.logger.warn(`Session ${file}: image copies missing: ${missing.join(', ')}`);
    const placeholders = missing.map((name) => `[image not found beside the session: ${name}]`);
    return {
      role: 'user',
      content: [message.content, ...placeholders].filter(Boolean).join('\n'),
      ...(images.length ? { images } : {}),
    };
  }

  /**
   * The session as saved (the file wins over what is in memory), with the thinking of this run's answers put back
   * beside their tool calls, for `/export`; undefined before the first answer.
   */
  async saved(): Promise<{ file: string; session: SessionFile } | undefined> {
    if (!this.file) return undefined;
    await this.settled();
    const session = await this.store.load(this.file);
    session.messages = session.messages.map((m, i) => {
      const steps = this.steps.get(i);
      return steps && m.role === 'assistant' ? { ...m, steps } : m;
    });
    return { file: this.file, session };
  }

  /** `/rename`: the session takes a title, and its file the title's name; resolves with the new path. */
  async rename(title: string): Promise<string | undefined> {
    if (!this.file || !this.session) return undefined;
    await this.settled();
    this.file = await this.store.rename(this.file, this.session, title);
    this.session = { ...this.session, title };
    this.logger.info(`Session renamed: ${this.file}`);
    return this.file;
  }

  /** The last `n` exchanges (a message of the user's and its answer), oldest first. */
  lastExchanges(n: number): Exchange[] {
    const pairs: Exchange[] = [];
    for (let i = this.messages.length - 2; i >= 0 && pairs.length < n; i -= 2) {
      const [user, answer] = [this.messages[i], this.messages[i + 1]];
      if (user?.role !== 'user' || answer?.role !== 'assistant') break;
      pairs.unshift({
        user: user.content,
        answer: answer.content,
        ...(user.images ? { images: user.images } : {}),
        ...(answer.unanswered && { unanswered: answer.unanswered }),
      });
    }
    return pairs;
  }

  /**
   * `/rewind`, `/retry`, `/edit`: takes back the last `n` exchanges, from the context and the session file (a
   * summary that stood for them goes too). Resolves with how many were taken back.
   */
  async rewind(n: number, { save = true } = {}): Promise<number> {
    const count = this.lastExchanges(n).length;
    if (!count) return 0;
    // Kept until the next change: a retry that gets no answer puts the exchange back (`undoRewind`).
    this.beforeRewind = {
      messages: this.messages,
      steps: new Map(this.steps),
      contextState: this.contextState,
      session: this.session && { ...this.session },
    };
    this.messages = this.messages.slice(0, -2 * count);
    const left = this.messages.length;
    if ((this.contextState.summary?.covers ?? 0) > left) this.contextState = newContextSession();
    for (const at of this.steps.keys()) if (at >= left) this.steps.delete(at);
    if (this.session) {
      // Not a change in place: a retry that gets no answer puts back the session as it was (`undoRewind`).
      this.session = {
        ...this.session,
        messages: this.session.messages.slice(0, -2 * count),
        summaries: this.session.summaries?.filter((s) => (s.covers ?? 0) <= left),
      };
      if (save && this.file && this.session.messages.length === 0) {
        // Nothing left to keep: the file goes to the trash as `/delete` does, not into the list as 0 messages;
        // the next answer starts a new one.
        await this.store.trash(this.file);
        this.file = undefined;
        this.session = undefined;
      } else if (save && this.file) await this.store.save(this.file, this.session);
    }
    this.logger.info(`Took back the last ${count} exchange(s).`);
    return count;
  }

  /**
   * Puts back what the last `rewind({ save: false })` took: a retry whose new answer did not come keeps the old one
   * (and the file is written again, since the retry's own question may have been kept in it meanwhile).
   */
  async undoRewind(): Promise<void> {
    const before = this.beforeRewind;
    this.beforeRewind = undefined;
    if (!before) return;
    this.messages = before.messages;
    this.steps = before.steps;
    this.contextState = before.contextState;
    this.session = before.session;
    if (this.file && this.session) await this.store.save(this.file, this.session);
  }

  /**
   * A turn begins: the question goes into the session file at once (a crash or `kill -9` mid-answer keeps it), and
   * the file's next rewrite starts with it while the answer is on its way, so that keeping the answer only writes
   * what it adds (a long conversation's file is megabytes). Neither holds the request.
   */
  beginTurn(turn: Pick<CompletedTurn, 'user' | 'images' | 'askedAt' | 'model'>): void {
    if (!this.file || !this.session) return;
    const messages = [...this.session.messages, this.userMessage(turn)];
    // Until its answer comes, the question stands in the file as a failed turn: resumed, `/retry` answers it.
    const unanswered: SessionMessage = {
      role: 'assistant',
      content: failedNote('', NOT_ANSWERED_YET),
      createdAt: rfc3339Local(turn.askedAt),
      model: turn.model,
      status: 'failed',
    };
    this.store.prepareSave?.(this.file, { ...this.session, model: turn.model, messages }, unanswered);
  }

  /** A turn ended: the rewrite begun for it goes if the turn left nothing to keep (it failed, or was cancelled). */
  async endTurn(): Promise<void> {
    if (this.file) await this.store.dropPreparedSave?.(this.file);
  }

  /** The question as its session keeps it: made once per turn, so the rewrite begun with it knows it again. */
  private userMessage({ user, images = [], askedAt }: Pick<CompletedTurn, 'user' | 'images' | 'askedAt'>) {
    if (this.asked?.at !== askedAt || this.asked.message.content !== user) {
      const message: SessionMessage = {
        role: 'user',
        content: user,
        createdAt: rfc3339Local(askedAt),
        ...(images.length ? { images: images.map((image) => ({ ...imageRecord(image) })) } : {}),
      };
      this.asked = { at: askedAt, message };
    }
    return this.asked.message;
  }

  /** `/compact`'s summary: it stands for the oldest messages from now on, and the session file keeps it. */
  async keepSummary(summary: ContextSummary, at: Date): Promise<void> {
    if (!this.session) return;
    this.session = {
      ...this.session,
      summaries: [{ content: summary.text, covers: summary.covers, createdAt: rfc3339Local(at) }],
    };
    if (this.file) await this.store.save(this.file, this.session);
  }

  /**
   * Keeps a turn and writes the session file; resolves with the file written. A turn without an answer is kept in
   * memory only while the session has no file: the file is created by the first answer.
   */
  async record(turn: CompletedTurn): Promise<string | undefined> {
    // An answer ends what a retry could undo; a retry that got none still puts back the answer it was to replace.
    if (!turn.unanswered) this.beforeRewind = undefined;
    const images = turn.images ?? [];
    const toolSteps = (turn.steps ?? []).filter((step) => 'tool' in step);
    const user = this.userMessage(turn);
    const answer: SessionMessage = {
      role: 'assistant',
      content: turn.answer,
      createdAt: rfc3339Local(turn.answeredAt),
      model: turn.model,
      ...(turn.usage ? { usage: turn.usage } : {}),
      ...(turn.unanswered && { status: turn.unanswered }),
      // Thinking is never saved (only the tool calls are): `/export` gets it from memory, for this run's turns.
      ...(toolSteps.length ? { steps: toolSteps } : {}),
    };
    this.messages = [
      ...this.messages,
      { role: 'user', content: turn.user, ...(images.length ? { images } : {}) },
      { role: 'assistant', content: turn.answer, ...(turn.unanswered && { unanswered: turn.unanswered }) },
    ];
    const session: SessionFile = this.session ?? {
      version: 1,
      startedAt: rfc3339Local(turn.askedAt),
      model: turn.model,
      messages: [],
    };
    session.model = turn.model;
    session.messages = [...session.messages, user, answer];
    if (turn.steps?.some((step) => 'thinking' in step))
      this.steps.set(session.messages.length - 1, turn.steps);
    if (turn.summary) {
      // Each summary takes in the one before it: the file keeps the newest only.
      session.summaries = [
        { content: turn.summary.text, covers: turn.summary.covers, createdAt: rfc3339Local(turn.answeredAt) },
      ];
    }
    this.session = session;
    if (this.file) {
      // Neither the prompt nor the next request waits for the disk: saves run in order, the newest state once.
      const file = this.file;
      const saved = this.store.save(file, session, [user, answer]);
      this.saving = Promise.all([this.saving, saved]).then(
        () => undefined,
        (error: unknown) => {
          this.saveFailure = `The session file could not be written: ${error instanceof Error ? error.message : String(error)}`;
          this.logger.error(this.saveFailure);
        },
      );
    } else if (turn.unanswered) {
      this.unsavedImages.push(...images);
      return undefined;
    } else {
      this.file = await this.store.create(session, turn.askedAt, turn.user);
      this.logger.info(`Session file created: ${this.file}`);
    }
    await saveSessionImages(this.file, [...this.unsavedImages, ...images]);
    this.unsavedImages = [];
    return this.file;
  }
}
