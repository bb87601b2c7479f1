import { isCommand, completeCommand, runCommand } from '../commands/run-command.js';
import type { CommandOutput } from '../commands/command-types.js';
import { CONFIRM_QUESTION } from '../transcript/transcript.js';
import type { TurnStatus } from '../types/engine-event.js';
import type { ChatStatus, HostEvent, InterruptResult, PromptKind } from '../types/host-event.js';
import { IMAGE_LIMITS, imageLine } from '../images/image-limits.js';
import type { MessageImage } from '../types/message.js';
import {
  completeImageMention,
  droppedImagePath,
  imageMentions,
  imageSourceOf,
  loadImage,
  type ImageSource,
  workingDirectory,
} from './attachments.js';
import { watchMcpProblems } from './mcp-problems.js';
import { runTurn, type EngineQuestion } from './run-turn.js';
import type { Chat, Runtime } from './runtime.js';

export type { InterruptResult };

/** Shown when a line arrives while a turn or command still runs (no second turn, no `/new` mid-turn). */
export const BUSY_TEXT = 'Still working on the last message: wait for it, or press Ctrl+C to cancel it.';

/** The prompt before a reply to the model's `ask_user` question. */
export const ASK_PROMPT = '> ';

const IMAGE_USAGE = 'Usage: /image <path or https address> (attaches a picture to your next message)';

interface PendingQuestion {
  kind: PromptKind;
  resolve(reply: string): void;
  reject(reason: Error): void;
}

/** How a conversation is driven: by a person at a terminal or a window, or by nobody (one-shot). */
export interface ChatControllerOptions {
  /**
   * Nobody is there to answer (`hac -p`): a tool call runs only with `approveTools` (`--yes`), else it is
   * declined; the model's `ask_user` gets no answer; a command's question is cancelled. Nothing ever waits.
   */
  unattended?: { approveTools: boolean };
  /** How long streamed text collects before it is handed on: 0 (a terminal) or 16 ms (a window). */
  deltaBatchMs?: number;
  /** `/resume` shows the end of the conversation it resumed (a window; a terminal keeps its scrollback short). */
  showResumed?: boolean;
}

/** The messages of a resumed conversation a window shows: its last 50. */
const RESUMED_SHOWN = 50;

/** How a message's turn ended: a one-shot run exits with it. */
export interface TurnOutcome {
  status: TurnStatus;
  /** An error was shown during the turn (a tool's or the model's). */
  hadError: boolean;
}

/**
 * One conversation as a front end drives it (docs/architecture.md): plain lines in through `submit`,
 * Ctrl+C through `interrupt`, and one ordered stream of plain-JSON host events out. Decides once, for every
 * front end, what a line means (a command, a message, or the reply to what is being asked) and what Ctrl+C means.
 */
export class ChatController {
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly mcpProblems;
  private pending: PendingQuestion | undefined;
  private turn: AbortController | undefined;
  private working = false;
  private closed = false;
  private mcpCounts: ChatStatus['mcp'] = { connected: 0, configured: 0 };
  private readonly stopStatus: () => void;
  private readonly stopSettings: () => void;
  private readonly chat: Chat;
  /** Settings another conversation changed since this one's last turn: told before the next one. */
  private changedElsewhere: string[] = [];
  /** Pictures waiting for the next message. */
  private attached: MessageImage[] = [];

  constructor(
    private readonly runtime: Runtime,
    private readonly options: ChatControllerOptions = {},
  ) {
    this.chat = runtime.openChat({ deltaBatchMs: options.deltaBatchMs });
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

  /** Starts MCP servers in the background and reports a broken mcp-servers.json at once. */
  async start(): Promise<void> {
    this.emitStatus();
    this.runtime.startMcp();
    await this.mcpProblems.check();
    await this.refreshStatus();
  }

  /** The state a status bar shows. */
  get status(): ChatStatus {
    const model = this.runtime.config().activeModel;
    return {
      ...(model ? { model: model.label, provider: model.provider } : {}),
      toolMode: this.runtime.config().toolCallMode,
      markdown: this.runtime.config().markdown,
      mcp: { ...this.mcpCounts },
      busy: this.working,
    };
  }

  /** Whether a line now would start something (nothing runs and nothing is being asked). */
  get idle(): boolean {
    return !this.working && !this.pending;
  }

  /** What is being asked, if anything. */
  get asking(): PromptKind | undefined {
    return this.pending?.kind;
  }

  /**
   * A line from the user: the reply to the question being asked, else a command or a message (`//text` sends
   * `/text`). Resolves when what it started has finished (a reply resolves at once).
   */
  async submit(line: string): Promise<void> {
    if (this.closed) return;
    const text = line.replace(/\r\n?/g, '\n');
    const question = this.pending;
    if (question) {
      this.pending = undefined;
      this.emit({ type: 'input', text, reply: true });
      return question.resolve(text);
    }
    const trimmed = text.trim();
    if (!trimmed) return;
    // A file dropped on a terminal arrives as its path: an image is attached, not sent as text.
    const dropped = this.idle ? droppedImagePath(trimmed, workingDirectory()) : undefined;
    if (dropped) return void (await this.attach({ file: dropped }));
    if (isCommand(trimmed)) await this.work(trimmed, () => this.command(trimmed));
    else await this.work(trimmed, () => this.message(trimmed.startsWith('//') ? trimmed.slice(1) : trimmed));
  }

  /**
   * A message for the model exactly as given, never a command or a reply (`hac -p "/etc/hosts?"` asks about the
   * file). Resolves when its turn has ended; undefined when it was not taken (closed, or busy).
   */
  send(text: string): Promise<TurnOutcome | undefined> {
    return this.work(text, () => this.message(text));
  }

  /**
   * Attaches a picture to the next message: a file, an https address, or bytes a window was given. Says what
   * was attached, or in one line why it could not be; resolves with whether it was.
   */
  async attach(source: ImageSource): Promise<boolean> {
    try {
      const image = await loadImage(source, this.imageLimits(), workingDirectory());
      this.attached = [...this.attached, image];
      this.emit({ type: 'command-output', lines: [`Attached ${imageLine(image)} to your next message.`] });
      this.emit({ type: 'attachments', images: this.attached });
      return true;
    } catch (error) {
      this.emit({ type: 'error', code: 'command-failed', message: (error as Error).message });
      return false;
    }
  }

  /** Removes attachment `index` (0-based) before it is sent. */
  detach(index: number): void {
    if (!this.attached[index]) return;
    this.attached = this.attached.filter((_, i) => i !== index);
    this.emit({ type: 'attachments', images: this.attached });
  }

  /** Ctrl+C: answers no at a Y/N question, cancels a command's question, else cancels the turn. */
  interrupt(): InterruptResult {
    const question = this.pending;
    this.pending = undefined;
    if (question) this.emit({ type: 'prompt-withdrawn' });
    if (question?.kind === 'confirm') {
      question.resolve('n');
      return 'answered-no';
    }
    if (question?.kind === 'choice') {
      question.reject(new Error('cancelled'));
      return 'question-cancelled';
    }
    if (this.turn) {
      question?.reject(new Error('cancelled'));
      this.turn.abort();
      return 'cancelled';
    }
    return 'idle';
  }

  /** Tab completion of what is typed at the prompt. */
  complete(prefix: string): string[] {
    const commands = completeCommand(prefix);
    return commands.length ? commands : completeImageMention(prefix, workingDirectory());
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
  private async work<T>(echo: string, run: () => Promise<T>): Promise<T | undefined> {
    if (this.closed) return undefined;
    if (this.working) return void this.emit({ type: 'busy', text: BUSY_TEXT });
    this.working = true;
    this.emit({ type: 'input', text: echo, reply: false });
    this.emitStatus();
    try {
      return await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.emit({ type: 'error', code: 'command-failed', message });
      return undefined;
    } finally {
      this.working = false;
      this.emitStatus();
    }
  }

  private async command(line: string): Promise<void> {
    const image = /^\/image(?:\s+(.*))?$/s.exec(line);
    if (image) {
      if (!image[1]?.trim()) return this.emit({ type: 'command-output', lines: [IMAGE_USAGE] });
      return void (await this.attach(imageSourceOf(image[1].trim())));
    }
    const file = this.chat.conversation.sessionFile;
    let output: CommandOutput = await runCommand(line, this.chat.commands);
    if (this.options.showResumed && this.chat.conversation.sessionFile !== file) this.showConversation();
    for (;;) {
      if (output.lines.length) this.emit({ type: 'command-output', lines: output.lines });
      if (output.openLink) this.emit({ type: 'open-link', url: output.openLink });
      if (output.exit) return this.emit({ type: 'exit' });
      const question = output.question;
      if (!question) return;
      const reply = await this.ask('choice', question.prompt, question.choices).catch(() => '0');
      output = await question.answer(reply);
    }
  }

  /** The end of the conversation now kept, as it looked when it was held: questions and answers. */
  private showConversation(): void {
    const messages = this.chat.conversation.history;
    const earlier = messages.length - RESUMED_SHOWN;
    if (earlier > 0) this.emit({ type: 'notice', level: 'dim', text: `(${earlier} earlier messages)` });
    for (const message of messages.slice(Math.max(0, earlier))) {
      if (message.role === 'user') this.emit({ type: 'input', text: message.content, reply: false });
      else if (message.role === 'assistant') {
        this.emit({ type: 'text-delta', text: message.content });
        this.emit({ type: 'turn-end', status: 'answered' });
      }
    }
  }

  private async message(typed: string): Promise<TurnOutcome> {
    for (const text of this.changedElsewhere.splice(0)) this.emit({ type: 'notice', level: 'dim', text });
    const { text, files } = imageMentions(typed);
    const images = [...this.attached];
    try {
      for (const file of files)
        images.push(await loadImage({ file }, this.imageLimits(), workingDirectory()));
    } catch (error) {
      // An image that cannot go: nothing is sent, and what was attached waits for the next try.
      this.emit({ type: 'error', code: 'command-failed', message: (error as Error).message });
      return { status: 'failed', hadError: true };
    }
    if (images.length) {
      this.attached = [];
      this.emit({ type: 'attachments', images: [] });
      this.emit({ type: 'images', images });
    }
    const turn = new AbortController();
    this.turn = turn;
    try {
      const outcome = await runTurn(
        this.chat.engine,
        { text, images },
        turn.signal,
        (event) => this.emit(event),
        (event) => this.askEngine(event),
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

  private askEngine(event: EngineQuestion): Promise<string> {
    if (event.type === 'confirmation-request') return this.ask('confirm', CONFIRM_QUESTION);
    return this.ask('ask', ASK_PROMPT, event.options);
  }

  private ask(kind: PromptKind, text: string, choices?: string[]): Promise<string> {
    const unattended = this.options.unattended;
    if (unattended) {
      // Nobody to ask: approve or decline a tool call as told, leave the rest unanswered.
      if (kind === 'confirm') return Promise.resolve(unattended.approveTools ? 'y' : 'n');
      return kind === 'ask' ? Promise.resolve('') : Promise.reject(new Error('cancelled'));
    }
    return new Promise((resolve, reject) => {
      this.pending = { kind, resolve, reject };
      this.emit({ type: 'prompt', kind, text, ...(choices?.length ? { choices } : {}) });
    });
  }

  private emitStatus(): void {
    this.emit({ type: 'status', status: this.status });
  }

  private async refreshStatus(): Promise<void> {
    const { servers } = await this.runtime.mcpServers();
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
  }
}
