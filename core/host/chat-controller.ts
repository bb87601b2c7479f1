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
import { answerLine, askedLine, askInTerminal, Declined, unattendedLine } from './server-questions.js';
import { checkForm } from '../mcp/form-fields.js';
import type { Reply } from '../engine/event-channel.js';
import type { FormReply, SessionRequest, SessionView } from './bridge.js';
import { changeSession, sessionViews } from './session-actions.js';
import path from 'node:path';
import type { Elicit } from '../mcp/index.js';
import {
  completeMcp,
  parsePromptCommand,
  promptsLines,
  PROMPT_USAGE,
  resourceMentions,
  resourcesLines,
} from './mcp-extras.js';
import type { ElicitationAnswer, ElicitationRequest, FormField } from '../types/elicitation.js';
import type { Chat, Runtime } from './runtime.js';
import type { ModelConfig } from '../config/load-config.js';
import { short } from '../commands/conversation-commands.js';

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
  /** The field being answered (what a server asks): a secret is masked before it is echoed. */
  field?: FormField;
  /** A window's whole form: its answer comes through `answerForm`. */
  form?: {
    /** What the window was shown, to check the answers against and send back with their errors. */
    shown: { server: string; message: string; fields: FormField[] };
    resolve(answer: ElicitationAnswer): void;
  };
}

/** The first run's question, when a provider is within reach and there is no config.json. */
const SET_UP_QUESTION = 'Write config.json for which? (a number, 0 for not now): ';

/** Shown when a line is typed while a window's form waits for its own buttons. */
const FORM_WAITING = 'Fill in the form above and press Submit, or Decline (Esc declines too).';

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
  /** What an MCP server asks is shown as one form (a window), not asked one field at a time (a terminal). */
  wholeForms?: boolean;
}

/** The messages of a resumed conversation a window shows: its last 50. */
const RESUMED_SHOWN = 50;

/** What may be an `@server:uri` mention of an MCP resource. */
const MENTION = /(^|\s)@[\w.-]+:\S/;

/** A picture a prompt or resource gave, in base64, with the name it is shown by. */
interface NamedImage {
  data: string;
  mimeType: string;
  name: string;
}

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

  /**
   * No config.json yet, and a provider within reach (a key in the environment, a local Ollama with models): offer
   * to write a config.json for it, the key as `${VAR}`. Nothing is written without the user's choice. Resolves when
   * it has been answered (at once when there is nothing to offer): a terminal asks before its first prompt.
   */
  async offerSetUp(): Promise<void> {
    if (this.options.unattended) return;
    const choices = await this.runtime.setUpChoices().catch(() => []);
    if (!choices.length || !this.idle || this.closed) return;
    const labels = choices.map((c) => c.label);
    this.emit({
      type: 'command-output',
      lines: [
        `No config.json yet. hac can write ${this.runtime.paths.config} for what it found:`,
        ...labels.map((label, i) => `  ${i + 1}) ${label}`),
      ],
    });
    const reply = (await this.ask('choice', SET_UP_QUESTION, labels).catch(() => '0')).trim();
    const chosen = /^\d+$/.test(reply) ? choices[Number(reply) - 1] : undefined;
    if (!chosen)
      return this.emit({
        type: 'command-output',
        lines: ['Nothing written. /help says how to add a model by hand.'],
      });
    try {
      const active = await this.chat.commands.setActiveModel({ add: chosen.model });
      const key = chosen.model.apiKey ? ` (its key is read from ${chosen.model.apiKey}, never written)` : '';
      this.emit({
        type: 'command-output',
        lines: [
          `Wrote config.json with ${active.label} (${active.provider}) as the active model${key}. Ask away.`,
        ],
      });
    } catch (error) {
      this.emit({ type: 'error', code: 'command-failed', message: (error as Error).message });
    }
    this.emitStatus();
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
    if (question?.form) return this.emit({ type: 'busy', text: FORM_WAITING });
    if (question) {
      this.pending = undefined;
      // A secret typed into a server's form is masked from its echo on.
      if (question.field?.sensitive && text.trim()) this.runtime.secrets.add([text.trim()]);
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

  /** A window's session list: the recent sessions, or those holding every word of `query`, newest first. */
  findSessions(query: string): Promise<SessionView[]> {
    return sessionViews(this.chat.commands, query);
  }

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
      this.emit({ type: 'command-output', lines: [`Resumed ${request.name} (${count} messages).`] });
      return `Opened ${request.name}.`;
    } finally {
      this.working = false;
      this.emitStatus();
    }
  }

  /** Removes attachment `index` (0-based) before it is sent. */
  detach(index: number): void {
    if (!this.attached[index]) return;
    this.attached = this.attached.filter((_, i) => i !== index);
    this.emit({ type: 'attachments', images: this.attached });
  }

  /**
   * A window's answer to a server's form: the values as its inputs hold them, or decline / cancel. Values that do
   * not fit their fields send the form back with what is wrong; resolves with whether the form was answered.
   */
  answerForm(answer: FormReply): boolean {
    const form = this.pending?.form;
    // A page confirmation or a field asked on the prompt line: Decline and Cancel still mean what they say.
    if (!form && answer.action === 'decline') return this.escape();
    if (!form && answer.action === 'cancel')
      return this.pending?.kind === 'field' && this.interrupt() !== 'idle';
    if (!form) return false;
    let given: ElicitationAnswer = { action: answer.action === 'accept' ? 'cancel' : answer.action };
    if (answer.action === 'accept') {
      const checked = checkForm(form.shown.fields, answer.values);
      if ('errors' in checked) {
        this.emit({ type: 'form', ...form.shown, errors: checked.errors });
        return false;
      }
      given = { action: 'accept', content: checked.content };
    }
    this.pending = undefined;
    this.emit({ type: 'prompt-withdrawn' });
    form.resolve(given);
    return true;
  }

  /** Escape: declines what an MCP server asks (a field or a form); elsewhere it does nothing here. */
  escape(): boolean {
    const question = this.pending;
    if (question?.kind !== 'field' && question?.kind !== 'form') return false;
    this.pending = undefined;
    this.emit({ type: 'prompt-withdrawn' });
    if (question.form) question.form.resolve({ action: 'decline' });
    else question.reject(new Declined());
    return true;
  }

  /**
   * Ctrl+C: answers no at a Y/N question, cancels a command's question or what a server asks, else cancels the
   * turn.
   */
  interrupt(): InterruptResult {
    const question = this.pending;
    this.pending = undefined;
    if (question) this.emit({ type: 'prompt-withdrawn' });
    if (question?.kind === 'confirm') {
      question.resolve('n');
      return 'answered-no';
    }
    if (question?.form) {
      question.form.resolve({ action: 'cancel' });
      return 'question-cancelled';
    }
    if (question && (question.kind !== 'ask' || !this.turn)) {
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
    // What MCP servers offer besides tools: listed here, and a prompt is sent as if typed.
    const [name = '', ...rest] = line.split(/\s+/);
    if (name === '/prompts' || name === '/resources') {
      const pool = await this.runtime.mcpReady();
      const lines = name === '/prompts' ? promptsLines(pool) : resourcesLines(pool);
      return this.emit({ type: 'command-output', lines });
    }
    if (name === '/prompt') return void (await this.usePrompt(rest.join(' ')));
    if (name === '/retry') return void (await this.retry(rest.join(' ').trim()));
    if (name === '/edit') return this.editLast();
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

  /**
   * `/prompt server:name [arg=value …]`: asks for the required arguments not given (with the server's
   * suggestions where it has them), then sends the prompt's messages as if typed.
   */
  private async usePrompt(arg: string): Promise<TurnOutcome | undefined> {
    const pool = await this.runtime.mcpReady();
    const parsed = parsePromptCommand(arg, pool);
    if (!pool || 'error' in parsed) {
      this.emit({ type: 'command-output', lines: ['error' in parsed ? parsed.error : PROMPT_USAGE] });
      return undefined;
    }
    const { prompt, args } = parsed;
    for (const argument of prompt.arguments.filter((a) => a.required && !(a.name in args))) {
      const value = { name: argument.name, value: '' };
      const suggestions = (await pool.completePrompt(prompt.server, prompt.name, value, args)).slice(0, 10);
      if (suggestions.length)
        this.emit({ type: 'command-output', lines: suggestions.map((s, i) => `  ${i + 1}) ${s}`) });
      const about = argument.description ? ` (${argument.description})` : '';
      const reply = (await this.ask('ask', `${argument.name}${about}: `, suggestions).catch(() => '')).trim();
      if (!reply) {
        this.emit({ type: 'command-output', lines: ['Prompt not sent.'] });
        return undefined;
      }
      args[argument.name] = /^\d+$/.test(reply) ? (suggestions[Number(reply) - 1] ?? reply) : reply;
    }
    const turn = new AbortController();
    this.turn = turn;
    const elicit = this.elicitFor(prompt.server);
    const content = await pool
      .getPrompt(prompt.server, prompt.name, args, turn.signal, elicit)
      .finally(() => (this.turn = undefined));
    const name = `${prompt.server}:${prompt.name}`;
    this.emit({ type: 'command-output', lines: [`Sending prompt ${name}:`, content.text] });
    return this.message(
      content.text,
      content.images.map((image) => ({ ...image, name })),
    );
  }

  /**
   * `/retry [model]`: takes back the last answer and asks for it again, with its pictures (and with another
   * configured model for this turn, if one is named).
   */
  private async retry(name: string): Promise<TurnOutcome | undefined> {
    const say = (line: string) => void this.emit({ type: 'command-output', lines: [line] });
    const models = this.runtime.config().models;
    const model = name ? models.find((m) => m.label === name || m.id === name) : undefined;
    if (name && !model) return say(`No configured model named "${name}" (see /set-model).`);
    const [last] = this.chat.commands.lastExchanges(1);
    if (!last) return say('Nothing to retry yet.');
    // The old answer leaves the file only when a new one arrives: a failed or cancelled retry keeps it.
    await this.chat.commands.rewind(1, { save: false });
    say(`Asking again${model ? ` with ${model.label}` : ''}: ${short(last.user)}`);
    const attached = this.attached;
    this.attached = [...(last.images ?? []), ...attached];
    const outcome = await this.message(last.user, [], model);
    if (outcome.status !== 'answered') {
      this.chat.commands.undoRewind();
      this.attached = attached;
      say('No new answer: the last one is kept.');
    }
    return outcome;
  }

  /** `/edit`: takes back the last exchange and puts its message (and pictures) back to be changed and sent. */
  private async editLast(): Promise<void> {
    const [last] = this.chat.commands.lastExchanges(1);
    if (!last) return this.emit({ type: 'command-output', lines: ['Nothing to edit yet.'] });
    await this.chat.commands.rewind(1);
    if (last.images?.length) {
      this.attached = [...last.images, ...this.attached];
      this.emit({ type: 'attachments', images: this.attached });
    }
    this.emit({
      type: 'command-output',
      lines: ['Took back your last message and its answer: change it and press Enter to send it again.'],
    });
    this.emit({ type: 'draft', text: last.user });
  }

  /** How a request of ours outside the engine (a prompt, a resource) lets the server ask the user. */
  private elicitFor(server: string): Elicit {
    return (request) => this.askServer(server, request);
  }

  private async message(typed: string, given: NamedImage[] = [], model?: ModelConfig): Promise<TurnOutcome> {
    for (const text of this.changedElsewhere.splice(0)) this.emit({ type: 'notice', level: 'dim', text });
    const turn = new AbortController();
    this.turn = turn;
    try {
      const ready = await this.attachments(typed, given, turn.signal);
      if (!ready) return { status: turn.signal.aborted ? 'cancelled' : 'failed', hadError: true };
      const { text, images } = ready;
      if (images.length) {
        this.attached = [];
        this.emit({ type: 'attachments', images: [] });
        this.emit({ type: 'images', images });
      }
      const outcome = await runTurn(
        this.chat.engine,
        { text, images, ...(model ? { model } : {}) },
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

  /**
   * What goes with a message: the resources it names (`@server:uri`, their text appended), the pictures attached,
   * named (`@shot.png`) or given (a prompt's). Undefined, with the error shown, when one cannot go: nothing is
   * sent, and what was attached waits for the next try.
   */
  private async attachments(
    typed: string,
    given: NamedImage[],
    signal: AbortSignal,
  ): Promise<{ text: string; images: MessageImage[] } | undefined> {
    // A message that may name a resource waits for the servers, as its turn would.
    const pool = MENTION.test(typed) ? await this.runtime.mcpReady() : this.runtime.mcpPool();
    const { text: said, mentions } = resourceMentions(typed, pool);
    const { text: spoken, files } = imageMentions(said);
    const texts = [spoken];
    const pictures = [...given];
    const images = [...this.attached];
    const limits = this.imageLimits();
    try {
      for (const { server, uri } of mentions) {
        const label = `${server}:${uri}`;
        const content = await pool!.readResource(server, uri, signal, this.elicitFor(server));
        texts.push(content.text);
        pictures.push(...content.images.map((image) => ({ ...image, name: label })));
        this.emit({
          type: 'notice',
          level: 'dim',
          text: `Attached ${label} (${content.text.length} characters).`,
        });
      }
      for (const { data, name } of pictures)
        images.push(
          await loadImage({ bytes: Buffer.from(data, 'base64'), name }, limits, workingDirectory()),
        );
      for (const file of files) images.push(await loadImage({ file }, limits, workingDirectory()));
    } catch (error) {
      if (!signal.aborted)
        this.emit({ type: 'error', code: 'command-failed', message: (error as Error).message });
      return undefined;
    }
    return { text: texts.join('\n\n'), images };
  }

  /** How large a picture the active model's provider takes. */
  private imageLimits() {
    return IMAGE_LIMITS[this.runtime.config().activeModel?.provider ?? 'openai'];
  }

  private askEngine(event: EngineQuestion): Promise<Reply> {
    if (event.type === 'confirmation-request') return this.ask('confirm', CONFIRM_QUESTION);
    if (event.type === 'elicitation') return this.askServer(event.server, event.request);
    return this.ask('ask', ASK_PROMPT, event.options);
  }

  /**
   * What an MCP server asks while a request of ours runs (a tool call, a prompt, a resource): a person answers,
   * never the model. A window gets the whole form; a terminal is asked field by field; with nobody there
   * (`hac -p`) the server is told no, in one line.
   */
  private async askServer(server: string, request: ElicitationRequest): Promise<ElicitationAnswer> {
    if (this.options.unattended) {
      this.emit({ type: 'notice', level: 'warn', text: unattendedLine(server, request) });
      return { action: 'decline' };
    }
    this.emit({ type: 'notice', level: 'info', text: askedLine(server, request) });
    if (request.mode === 'url') this.emit({ type: 'open-link', url: request.url });
    let answer: ElicitationAnswer;
    if (this.options.wholeForms && request.mode === 'form') {
      const shown = { server, message: request.message, fields: request.fields };
      answer = await new Promise<ElicitationAnswer>((resolve) => {
        this.pending = {
          kind: 'form',
          resolve: () => undefined,
          reject: () => undefined,
          form: { shown, resolve },
        };
        this.emit({ type: 'form', ...shown });
      });
    } else {
      answer = await askInTerminal(request, {
        say: (text) => this.emit({ type: 'notice', level: 'info', text }),
        ask: (text, field) =>
          this.ask(
            'field',
            text,
            field?.options?.map((o) => o.label),
            field,
          ),
      });
    }
    this.emit({ type: 'notice', level: 'dim', text: answerLine(server, request, answer) });
    return answer;
  }

  private ask(kind: PromptKind, text: string, choices?: string[], field?: FormField): Promise<string> {
    const unattended = this.options.unattended;
    if (unattended) {
      // Nobody to ask: approve or decline a tool call as told, leave the rest unanswered.
      if (kind === 'confirm') return Promise.resolve(unattended.approveTools ? 'y' : 'n');
      return kind === 'ask' ? Promise.resolve('') : Promise.reject(new Error('cancelled'));
    }
    return new Promise((resolve, reject) => {
      this.pending = { kind, resolve, reject, ...(field && { field }) };
      this.emit({
        type: 'prompt',
        kind,
        text,
        ...(choices?.length ? { choices } : {}),
        ...(field?.sensitive ? { secret: true as const } : {}),
      });
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
