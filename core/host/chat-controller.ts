import { connectView, viewCommand, type ViewAppearance, type ViewConnection } from './view-connection.js';
import { ToolViews } from './tool-views.js';
import { canonicalCommand, isCommand, completeCommand, runCommand } from '../commands/run-command.js';
import type { CommandOutput } from '../commands/command-types.js';
import type { ChatStatus, HostEvent, InterruptResult, PromptKind } from '../types/host-event.js';
import { IMAGE_LIMITS, imageLine } from '../images/image-limits.js';
import {
  completeImageMention,
  droppedImagePath,
  imageSourceOf,
  loadImage,
  type ImageSource,
  workingDirectory,
} from './attachments.js';
import { watchMcpProblems } from './mcp-problems.js';
import { offerConfig } from './first-run-offer.js';
import { runTurn, type TurnOutcome } from './run-turn.js';
import type { FormReply, SessionDownload, SessionRequest, SessionView } from './bridge.js';
import { changeSession, downloadSession, resumedEvents, sessionViews } from './session-actions.js';
import path from 'node:path';
import { chatStatus, exchangeCount } from './chat-status.js';
import { HeldMessages } from './held-messages.js';
import type { Elicit } from '../mcp/index.js';
import { completeMcp, promptsLines, resourcesLines } from './mcp-extras.js';
import type { Chat, ChatOptions, Runtime } from './runtime.js';
import { Questions } from './questions.js';
import { runShellCommand, shellRunLine, shellRunText, type ShellRun } from './shell-command.js';
import { AttachedImages, gatherMessage, overBudgetLine } from './message-parts.js';
import { editLast, retry, usePrompt, type ChatParts, type MessageExtras } from './message-commands.js';

export type { InterruptResult, TurnOutcome };

/** Shown when a line arrives while a turn or command still runs (no second turn, no `/new` mid-turn). */
export const BUSY_TEXT = 'Still working on the last message: wait for it, or press Ctrl+C to cancel it.';

const IMAGE_USAGE = 'Usage: /image <path or https address> (attaches a picture to your next message)';

/** How a conversation is driven: by a person at a terminal or a window, or by nobody (one-shot). */
export interface ChatControllerOptions extends ChatOptions {
  /**
   * Nobody is there to answer (`hac -p`): a tool call runs only with `approveTools` (`--yes`), else it is
   * declined; the model's `ask_user` gets no answer; a command's question is cancelled. Nothing ever waits.
   */
  unattended?: { approveTools: boolean };
  /** `/resume` draws the end of the conversation it resumed again (its last 50 messages). */
  showResumed?: boolean;
  /** What an MCP server asks is shown as one form (a window), not asked one field at a time (a terminal). */
  wholeForms?: boolean;
  /** A tool's view (MCP Apps) is drawn in the transcript under its line (a window), not opened by `/view` alone. */
  inlineViews?: boolean;
}

/**
 * One conversation as a front end drives it (docs/architecture.md): plain lines in through `submit`,
 * Ctrl+C through `interrupt`, and one ordered stream of plain-JSON host events out. Decides once, for every
 * front end, what a line means (a command, a message, or the reply to what is being asked) and what Ctrl+C means.
 */
export class ChatController {
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly mcpProblems;
  private readonly questions: Questions;
  private turn: AbortController | undefined;
  private working = false;
  private closed = false;
  private mcpCounts: ChatStatus['mcp'] = { connected: 0, configured: 0 };
  private readonly stopStatus: () => void;
  private readonly stopSettings: () => void;
  private readonly chat: Chat;
  /** Settings another conversation changed since this one's last turn: told before the next one. */
  private changedElsewhere: string[] = [];
  private readonly attached = new AttachedImages((event) => this.emit(event));
  /** Commands run with `!`, waiting for the next message. */
  private readonly shellRuns: ShellRun[] = [];
  /** What views asked the model to be told, by view: the newest of each goes with the next message. */
  private readonly viewContext = new Map<string, string>();
  private readonly held = new HeldMessages();
  /** The tool views this conversation has shown, for `/view <n>`. */
  private readonly toolViews: ToolViews;
  /** What `/prompt`, `/retry` and `/edit` need from this conversation. */
  private readonly parts: ChatParts;

  constructor(
    private readonly runtime: Runtime,
    private readonly options: ChatControllerOptions = {},
  ) {
    this.chat = runtime.openChat(options);
    this.toolViews = new ToolViews(options.inlineViews === true);
    this.questions = new Questions((event) => this.emit(event), runtime.secrets, options);
    this.parts = {
      runtime,
      chat: this.chat,
      questions: this.questions,
      attached: this.attached,
      emit: (event) => this.emit(event),
      message: (text, extras) => this.message(text, extras),
      cancellable: (run) => this.cancellable(run),
      elicitFor: (server) => this.elicitFor(server),
      tellModel: (view, text) => this.viewContext.set(view, text),
    };
    this.mcpProblems = watchMcpProblems(runtime, (problem) => this.emit({ type: 'mcp-status', ...problem }));
    this.stopStatus = runtime.onMcpChange(() => void this.refreshStatus());
    this.stopSettings = runtime.onSettingsChange(({ text, chat }) => {
      if (chat === this.chat) return;
      this.changedElsewhere.push(`${text.replace(/\.$/, '')} (in another window).`);
      this.emitStatus();
    });
  }

  /** Listens to every host event, in order; returns the function that stops listening. */
  onEvent(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * The bridge to view `number` of this conversation (after an `open-view` event): the front end draws the view in
   * its sandbox and relays its messages. Rejects with one line when the view cannot be shown.
   */
  async connectView(number: number, appearance: ViewAppearance): Promise<ViewConnection> {
    const view = this.toolViews.get(number);
    if (!view) throw new Error(`There is no view ${number}.`);
    return connectView(this.parts, view, appearance);
  }

  /** Starts MCP servers in the background and reports a broken mcp-servers.json at once. */
  async start(): Promise<void> {
    this.emitStatus();
    this.runtime.startMcp();
    await this.mcpProblems.check();
    await this.refreshStatus();
    void this.sayLeftOutTools();
  }

  /**
   * Once the servers have listed their tools: which servers' tools will not be offered (too many, or more than
   * their share of the context) and what to do, said at start rather than with the first message.
   */
  private async sayLeftOutTools(): Promise<void> {
    if (this.options.unattended) return;
    await this.runtime.mcpReady();
    const lines = await this.chat.commands.toolLimitLines().catch(() => []);
    if (!lines.length || this.closed || !this.chat.engine.claimToolLimitLine()) return;
    for (const text of lines) this.emit({ type: 'mcp-status', ok: false, text });
  }

  /**
   * No config.json yet, and a provider within reach (a key in the environment, a local Ollama with models): offer
   * to write a config.json for it, the key as `${VAR}`; nothing is written without the user's choice. Resolves once
   * it has been answered (with nothing to offer and no model, it says how to add one): a terminal asks first.
   */
  async offerSetUp(): Promise<void> {
    if (this.options.unattended) return;
    const choices = await this.runtime.setUpChoices().catch(() => []);
    if (!this.idle || this.closed) return;
    await offerConfig(this.parts, choices);
    this.emitStatus();
  }

  /** The state a status bar shows. */
  get status(): ChatStatus {
    return chatStatus(this.runtime, this.chat, this.mcpCounts, this.working, this.held.held);
  }

  /** Whether a line now would start something (nothing runs and nothing is being asked). */
  get idle(): boolean {
    return !this.working && !this.questions.kind;
  }

  /** What is being asked, if anything. */
  get asking(): PromptKind | undefined {
    return this.questions.kind;
  }

  /**
   * A line from the user: the reply to the question being asked, else a command or a message (`//text` sends
   * `/text`). Resolves when what it started has finished (a reply resolves at once).
   */
  async submit(line: string): Promise<void> {
    if (this.closed) return;
    const text = line.replace(/\r\n?/g, '\n');
    if (this.questions.reply(text)) return;
    const trimmed = text.trim();
    if (!trimmed) return;
    // A file dropped on a terminal arrives as its path: an image is attached, not sent as text.
    const dropped = this.idle ? droppedImagePath(trimmed, workingDirectory()) : undefined;
    if (dropped) return void (await this.attach({ file: dropped }));
    if (isCommand(trimmed)) await this.work(trimmed, () => this.command(trimmed));
    else if (/^!\s*\S/.test(trimmed)) await this.work(trimmed, () => this.shell(trimmed.slice(1).trim()));
    else
      await this.work(
        trimmed,
        () => this.message(trimmed.startsWith('//') ? trimmed.slice(1) : trimmed),
        true,
      );
  }

  /**
   * A message for the model exactly as given, never a command or a reply (`hac -p "/etc/hosts?"` asks about the
   * file). Resolves when its turn has ended; undefined when it was not taken (closed, or busy).
   */
  send(text: string): Promise<TurnOutcome | undefined> {
    return this.work(text, () => this.message(text), true);
  }

  /**
   * Attaches a picture to the next message: a file, an https address, or bytes a window was given. Says what
   * was attached, or in one line why it could not be; resolves with whether it was.
   */
  async attach(source: ImageSource): Promise<boolean> {
    try {
      const image = await loadImage(source, this.imageLimits(), workingDirectory());
      this.emit({ type: 'command-output', lines: [`Attached ${imageLine(image)} to your next message.`] });
      this.attached.images = [...this.attached.images, image];
      return true;
    } catch (error) {
      this.emit({ type: 'error', code: 'command-failed', message: (error as Error).message });
      return false;
    }
  }

  /** A window's session list: the recent sessions, or those holding every word of `query`, newest first. */
  findSessions = (query: string): Promise<SessionView[]> => sessionViews(this.chat.commands, query);

  /** A session of the list as a file for the page to download. */
  downloadSession = (name: string, format: 'md' | 'json'): Promise<SessionDownload> =>
    downloadSession(this.chat.commands, path.join(this.runtime.paths.sessions, name), format);

  /** What the session list asks: open one here, rename, delete (to the trash) or export it; one line back. */
  async manageSession(request: SessionRequest): Promise<string> {
    if (request.action !== 'open')
      return changeSession(this.chat.commands, this.runtime.paths.sessions, request);
    if (!this.idle) return BUSY_TEXT;
    this.working = true;
    this.emitStatus();
    try {
      const count = await this.chat.commands.resumeSession(
        path.join(this.runtime.paths.sessions, request.name),
      );
      this.showConversation();
      const views = this.toolViews.resumed(this.chat.conversation.savedViews());
      // Named by its title, as typed /resume names it: the file's name is the list's business.
      const title = `"${this.chat.conversation.title ?? request.name}"`;
      const lines = [`Resumed ${title} (${count} messages).`, ...(views ? [views] : [])];
      this.emit({ type: 'command-output', lines });
      return `Opened ${title}.`;
    } finally {
      this.working = false;
      this.emitStatus();
    }
  }

  /** Removes attachment `index` (0-based) before it is sent, and says so under the line that said it was attached. */
  detach(index: number): void {
    const image = this.attached.images[index];
    if (!image) return;
    this.attached.images = this.attached.images.filter((_, i) => i !== index);
    this.emit({ type: 'command-output', lines: [`Removed ${imageLine(image)} from your next message.`] });
  }

  /**
   * A window's answer to a server's form: the values as its inputs hold them, or decline / cancel. Values that do
   * not fit their fields send the form back with what is wrong; resolves with whether the form was answered.
   */
  answerForm(answer: FormReply): boolean {
    return this.questions.answerForm(answer, () => this.interrupt() !== 'idle');
  }

  /** Escape: declines what an MCP server asks (a field or a form); elsewhere it does nothing here. */
  escape(): boolean {
    return this.questions.escape();
  }

  /**
   * Ctrl+C: answers no at a Y/N question, cancels a command's question or what a server asks, else cancels the
   * turn.
   */
  interrupt(): InterruptResult {
    const settled = this.questions.withdraw(Boolean(this.turn));
    if (settled) return settled;
    if (!this.turn) return 'idle';
    this.turn.abort();
    return 'cancelled';
  }

  /** Tab completion of what is typed at the prompt. */
  complete(prefix: string): string[] {
    const commands = completeCommand(prefix);
    if (commands.length) return commands;
    const mcp = completeMcp(prefix, this.runtime.mcpPool());
    return mcp.length ? mcp : completeImageMention(prefix, workingDirectory());
  }

  /** Ends this conversation: a running turn is cancelled and every listener released. MCP stays (it is shared). */
  close(): void {
    if (this.closed) return;
    this.interrupt();
    this.closed = true;
    this.mcpProblems.stop();
    this.stopStatus();
    this.stopSettings();
    this.listeners.clear();
  }

  /** Runs a command or a turn: one at a time, echoed, the status line busy meanwhile. */
  private async work<T>(echo: string, run: () => Promise<T>, isMessage = false): Promise<T | undefined> {
    if (this.closed) return undefined;
    if (this.working) return void this.emit({ type: 'busy', text: BUSY_TEXT });
    this.working = true;
    const id = isMessage ? this.held.sent() : undefined;
    this.emit({ type: 'input', text: echo, reply: false, ...(id !== undefined && { id }) });
    this.emitStatus();
    try {
      return await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.emit({ type: 'error', code: 'command-failed', message });
      return undefined;
    } finally {
      this.working = false;
      this.held.settle(exchangeCount(this.chat), id);
      this.emitStatus();
    }
  }

  private async command(typed: string): Promise<void> {
    const line = canonicalCommand(typed);
    const image = /^\/image(?:\s+(.*))?$/s.exec(line);
    if (image) {
      if (!image[1]?.trim()) return this.emit({ type: 'command-output', lines: [IMAGE_USAGE] });
      return void (await this.attach(imageSourceOf(image[1].trim())));
    }
    // What MCP servers offer besides tools: listed here, and a prompt is sent as if typed.
    const [name = '', ...rest] = line.split(/\s+/);
    if (name === '/prompts' || name === '/resources') {
      const pool = await this.runtime.mcpReady();
      const lines = name === '/prompts' ? promptsLines(pool) : resourcesLines(pool);
      return this.emit({ type: 'command-output', lines });
    }
    if (name === '/prompt') return void (await usePrompt(this.parts, rest.join(' ')));
    if (name === '/retry') return void (await retry(this.parts, rest.join(' ').trim()));
    if (name === '/edit') return editLast(this.parts);
    if (name === '/view') return viewCommand(this.parts, this.toolViews, rest.join(' '));
    if (name === '/compact') {
      // A call to the summary model: Ctrl+C (or Esc) stops it, and the conversation stays as it was.
      const lines = await this.cancellable((signal) =>
        this.chat.engine.compact(signal).catch((error: unknown) => {
          if (signal.aborted) return ['Compacting cancelled; the conversation is as it was.'];
          throw error;
        }),
      );
      return this.emit({ type: 'command-output', lines });
    }
    let file = this.chat.conversation.sessionFile;
    let output: CommandOutput = await runCommand(line, this.chat.commands);
    for (;;) {
      // A resumed session is another conversation, shown as it was drawn (a renamed one keeps its messages,
      // under a new file name), also when it was chosen from the offered list.
      if (name === '/resume' && this.chat.conversation.sessionFile !== file) {
        file = this.chat.conversation.sessionFile;
        this.showConversation();
        const views = this.toolViews.resumed(this.chat.conversation.savedViews());
        if (views) output = { ...output, lines: [...output.lines, views] };
      }
      if (name === '/new') this.toolViews.resumed([]);
      if (output.lines.length) this.emit({ type: 'command-output', lines: output.lines });
      if (output.openLink) this.emit({ type: 'open-link', url: output.openLink });
      if (output.exit) return this.emit({ type: 'exit' });
      const question = output.question;
      if (!question) return;
      const reply = await this.questions.ask('choice', question.prompt, question.choices).catch(() => '0');
      output = await question.answer(reply);
    }
  }

  /** The end of the conversation now kept, as it looked when it was held. */
  private showConversation(): void {
    const ids = this.held.replaced(exchangeCount(this.chat));
    if (!this.options.showResumed) return;
    for (const event of resumedEvents(this.chat.conversation.history, ids)) this.emit(event);
  }

  /** How a request of ours outside the engine (a prompt, a resource) lets the server ask the user. */
  private elicitFor(server: string): Elicit {
    return (request) => this.questions.askServer(server, request);
  }

  /** Work outside a turn that Ctrl+C cancels as it would a turn (getting an MCP prompt). */
  private async cancellable<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const turn = new AbortController();
    this.turn = turn;
    try {
      return await run(turn.signal);
    } finally {
      this.turn = undefined;
    }
  }

  /**
   * `!command`: the user's own shell command (typed, never a model's or a server's text), its output shown and
   * kept for the next message, as Claude Code's and gemini-cli's shell modes do. Ctrl+C stops it.
   */
  private async shell(command: string): Promise<void> {
    const run = await this.cancellable((signal) => runShellCommand(command, signal));
    const output = run.output.replace(/\s+$/, '');
    this.emit({ type: 'command-output', lines: output ? output.split('\n') : [] });
    this.emit({ type: 'notice', level: 'dim', text: shellRunLine(run) });
    this.shellRuns.push(run);
  }

  private async message(typed: string, { given = [], images: kept = [], model }: MessageExtras = {}) {
    for (const text of this.changedElsewhere.splice(0)) this.emit({ type: 'notice', level: 'dim', text });
    const turn = new AbortController();
    this.turn = turn;
    try {
      const ready = await gatherMessage(typed, given, [...kept, ...this.attached.images], turn.signal, {
        runtime: this.runtime,
        emit: (event) => this.emit(event),
        elicitFor: (server) => this.elicitFor(server),
        limits: this.imageLimits(),
      });
      if (!ready) return { status: turn.signal.aborted ? 'cancelled' : 'failed', hadError: true } as const;
      // Commands the user ran with `!` since the last message go before what they wrote.
      const ran = this.shellRuns.splice(0).map(shellRunText);
      const told = [...this.viewContext].map(([view, said]) => `[${view} shows: ${said}]`);
      this.viewContext.clear();
      const { images } = ready;
      const text = [...ran, ...told, ready.text].join('\n\n');
      const budget = this.runtime.config().contextMaxChars;
      if (text.length > budget)
        this.emit({ type: 'notice', level: 'warn', text: overBudgetLine(text.length, budget) });
      if (images.length) {
        this.attached.images = [];
        this.emit({ type: 'images', images });
      }
      const outcome = await runTurn(
        this.chat.engine,
        { text, images, ...(model ? { model } : {}) },
        turn.signal,
        (event) => this.emit(event),
        (event) => this.questions.askEngine(event),
      );
      const file = this.chat.conversation.sessionFile;
      if (outcome.status === 'answered' && file) this.emit({ type: 'session-saved', file });
      return outcome;
    } finally {
      this.turn = undefined;
    }
  }

  /** How large a picture the active model's provider takes. */
  private imageLimits() {
    return IMAGE_LIMITS[this.runtime.config().activeModel?.provider ?? 'openai'];
  }

  private emitStatus(): void {
    this.emit({ type: 'status', status: this.status });
  }

  private async refreshStatus(): Promise<void> {
    const { servers } = await this.runtime.mcpServers(true);
    const enabled = servers.filter((s) => s.enabled);
    this.mcpCounts = {
      connected: enabled.filter((s) => s.state === 'connected').length,
      configured: enabled.length,
      needSignIn: enabled.filter((s) => s.state === 'needs-sign-in').length,
    };
    this.emitStatus();
  }

  /** The one way out to a screen, a window or JSON lines: secrets a server echoed are masked here. */
  private emit(event: HostEvent): void {
    const safe = this.runtime.secrets.redactDeep(event);
    for (const listener of this.listeners) listener(safe);
    const view = this.toolViews.noticed(safe);
    if (view) for (const listener of this.listeners) listener(view);
  }
}
