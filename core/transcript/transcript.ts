import type { HostEvent } from '../types/host-event.js';
import { imageLine } from '../images/image-limits.js';
import { approvalText, inertLine, inertValue } from '../text/inert-text.js';
import { foldedText } from '../text/pasted-text.js';
import { LinearAnswer } from './linear-answer.js';
import { progressLine } from './progress-line.js';
import type { EngineEvent } from '../types/engine-event.js';
import { MarkdownStream, type Highlighter, type MarkdownOptions } from './markdown-stream.js';
import type { Styles } from './styles.js';

export const PROMPT = 'humble-ai> ';
export const WAITING_LINE = 'Waiting for response...';
export const THINKING_START = '<<< Thinking >>>';
export const THINKING_END = '<<< End Thinking >>>';
export const CONFIRM_QUESTION = 'Call now? (Y/N): ';

const SGR_CODES = /\x1b\[[0-9;]*m/g;

/** The prompt for a screen reader: what the user types is labelled as their message. */
export const SCREEN_READER_PROMPT = 'You: ';

/** What a screen reader hears before each kind of message (`--screen-reader`). */
export const SCREEN_READER = {
  you: 'You:',
  answer: 'Answer:',
  thinking: 'Thinking:',
  endThinking: 'End of thinking.',
  toolCall: 'Tool call:',
  question: 'Question:',
} as const;
/** Back to the line's start and clear it: how a progress line is redrawn or given up. */
const ERASE_LINE = '\r\x1b[2K';

/**
 * Turns host events (the engine's and the chat controller's) into the text a host prints, the same in the
 * terminal and in xterm.js.
 * Streaming text is passed through as it arrives (never re-rendered); the renderer only remembers
 * whether the cursor is at the start of a line, so block lines never glue onto streamed text.
 */
export class TranscriptRenderer {
  private atLineStart = true;
  private inThinking = false;
  /** A progress line is on screen, without its line break, to be redrawn or replaced. */
  private live = false;
  /** Answer text was shown since the user last said something. */
  private answerShown = false;
  private md: MarkdownStream | undefined;
  private highlight: Highlighter | undefined;
  /** In linear mode: the answer read in order (tables as `Header: value` lines, code between labels). */
  private readonly linearText = new LinearAnswer();
  /** In linear mode: the 25% step of each call's progress said last (a line each, never redrawn). */
  private readonly progressSaid = new Map<string, number>();

  /**
   * `linear`: for a screen reader (`--screen-reader`): labelled text read once, in order (`Answer:`,
   * `Thinking:` … `End of thinking.`, `Tool call:`, `Question:`), progress as separate lines at 25% steps, and no
   * carriage return or erase that would make a reader say a line again.
   */
  constructor(
    private readonly styles: Styles,
    private readonly linear = false,
  ) {}

  /** Answers shown as styled Markdown, or as written when undefined (the default). */
  set markdown(options: MarkdownOptions | undefined) {
    this.md = options ? new MarkdownStream({ ...options, highlight: this.highlight }) : undefined;
  }

  /** Syntax highlighting for fenced code, once the host has loaded it. */
  set highlighter(highlight: Highlighter) {
    this.highlight = highlight;
    if (this.md) this.md.highlighter = highlight;
  }

  /**
   * The text to print for one event (may be empty). Everything an event carries is made inert first (a model, a
   * server or a provider may have written it), so only the styling added here can act on the screen.
   */
  render(given: HostEvent): string {
    const event = given.type === 'tool-call' ? given : inertValue(given); // the summary does its own
    if (this.linear) {
      // The answer's held line (a table's header, a line not ended yet) is said before anything else.
      const held = event.type === 'text-delta' || event.type === 'status' ? '' : this.linearText.finish();
      if (held) this.atLineStart = true;
      return held + this.renderEvent(event);
    }
    if (event.type === 'text-delta' || !this.md) return this.renderEvent(event);
    // Whatever Markdown holds back goes out before anything else is printed; the end of a turn closes it all.
    const held = event.type === 'turn-end' ? this.md.finish() : this.md.flush();
    if (held.replace(SGR_CODES, '') !== '') this.atLineStart = held.endsWith('\n');
    return held + this.renderEvent(event);
  }

  /**
   * A call's progress is one line that each report redraws in place; whatever is printed next takes that line's
   * place, so the transcript keeps no trace of it.
   */
  private renderEvent(event: HostEvent): string {
    if (event.type === 'tool-progress' && this.linear) return this.progressStep(event);
    if (event.type === 'tool-progress') {
      const start = this.live ? ERASE_LINE : this.atLineStart ? '' : '\n';
      this.live = true;
      this.atLineStart = false;
      return `${start}${this.styles.dim(progressLine(event))}`;
    }
    if (this.live) this.atLineStart = true; // the live line is erased before what follows is printed
    const shown = this.renderOne(event);
    if (!this.live || shown === '') return shown;
    this.live = false;
    return `${ERASE_LINE}${shown}`;
  }

  private renderOne(event: Exclude<HostEvent, { type: 'tool-progress' }>): string {
    if (this.linear) {
      const said = this.linearOne(event);
      if (said !== undefined) return said;
    }
    switch (event.type) {
      case 'waiting':
        return this.line(this.styles.dim(WAITING_LINE));
      case 'thinking-start':
        this.inThinking = true;
        return this.line(this.styles.dim(THINKING_START));
      case 'thinking-delta':
        return this.stream(this.styles.dim(event.text), event.text);
      case 'thinking-end':
        this.inThinking = false;
        return this.line(this.styles.dim(THINKING_END));
      case 'text-delta': {
        const printed = this.md ? this.md.push(event.text) : event.text;
        if (event.text) this.answerShown = true;
        return this.stream(printed, printed);
      }
      case 'notice':
        return this.line(event.level === 'info' ? event.text : this.styles.dim(event.text));
      case 'tool-call':
        return (
          this.endAnswer() +
          this.line(this.styles.cyan(toolCallSummary(event, (text) => this.styles.question(text))))
        );
      case 'confirmation-request':
        return ''; // the controller's `prompt` event that follows shows the question
      case 'prompt':
        return this.endAnswer() + this.prompt(this.styles.question(event.text));
      case 'input':
        this.answerShown = false;
        if (event.reply) return this.newline(foldedText(event.text));
        // The user's own words stand out; a long paste is one line, not thousands (it was sent whole).
        return this.line(this.styles.bold(`${PROMPT}${foldedText(event.text)}`));
      case 'command-output':
        return event.lines.length ? this.line(event.lines.join('\n')) : '';
      case 'images':
        return this.line(this.styles.dim(event.images.map(imageLine).join('\n')));
      case 'attachments':
        return '';
      case 'busy':
        return this.line(this.styles.dim(event.text));
      case 'mcp-status':
        return this.line(event.ok ? event.text : this.styles.red(event.text));
      case 'fatal':
        return this.line(this.styles.red(event.report.message));
      case 'session-saved':
      case 'open-link':
      case 'status':
      case 'prompt-withdrawn':
      case 'exit':
        return '';
      case 'question':
        return this.endAnswer() + this.line(questionText(event.question, event.options));
      case 'elicitation': // the controller says who asks and why, then asks
      case 'form': // a window draws the form itself
      case 'draft': // goes into the prompt line, not the transcript
        return '';
      case 'tool-result':
        return this.line(event.ok ? this.styles.dim(event.summary) : this.styles.red(event.summary));
      case 'view':
        return this.line(this.styles.dim(event.text));
      case 'open-view':
        return ''; // the front end says where it shows the view
      case 'tool-skipped':
        return this.line(event.reason === 'declined' ? event.text : this.styles.dim(event.text));
      case 'retry':
        return this.line(this.styles.dim(event.message));
      case 'context-trimmed':
        return this.line(this.styles.dim(event.text));
      case 'error':
        return this.line(this.styles.red(event.message));
      case 'turn-end':
        return this.atLineStart ? '' : this.newline('');
    }
  }

  /** The events a screen reader is told differently: each labelled, once. Undefined: as on any terminal. */
  private linearOne(event: Exclude<HostEvent, { type: 'tool-progress' }>): string | undefined {
    switch (event.type) {
      case 'thinking-start':
        this.inThinking = true;
        return this.line(SCREEN_READER.thinking);
      case 'thinking-end':
        this.inThinking = false;
        return this.line(SCREEN_READER.endThinking);
      case 'text-delta': {
        const label = !event.text || this.answerShown ? '' : this.line(SCREEN_READER.answer);
        if (event.text) this.answerShown = true;
        const said = this.linearText.push(event.text);
        return label + this.stream(said, said);
      }
      case 'tool-call':
        this.answerShown = false;
        return this.line(`${SCREEN_READER.toolCall}\n${toolCallSummary(event)}`);
      case 'prompt':
      case 'question':
        this.answerShown = false;
        return this.line(SCREEN_READER.question) + this.renderOneAsUsual(event);
      case 'input':
        this.answerShown = false;
        return event.reply
          ? this.newline(foldedText(event.text))
          : this.line(`${SCREEN_READER.you} ${foldedText(event.text)}`);
      default:
        return undefined;
    }
  }

  private renderOneAsUsual(event: Extract<HostEvent, { type: 'prompt' | 'question' }>): string {
    return event.type === 'prompt'
      ? this.prompt(event.text)
      : this.line(questionText(event.question, event.options));
  }

  /** A call's progress for a screen reader: a line at each 25% step it passes (or each report without a total). */
  private progressStep(event: Extract<HostEvent, { type: 'tool-progress' }>): string {
    const key = `${event.server}/${event.tool}`;
    const known = event.total !== undefined && event.total > 0;
    const step = known ? Math.floor((4 * Math.min(event.progress, event.total!)) / event.total!) : -1;
    if (known && (this.progressSaid.get(key) ?? -1) >= step) return '';
    this.progressSaid.set(key, step);
    return this.line(progressLine(event).replace(/▕[█░]*▏ /, ''));
  }

  /** Without colour, a line between an answer and what hac asks after it, so the answer cannot pass for hac. */
  private endAnswer(): string {
    if (!this.answerShown || !this.styles.answerEnd) return '';
    this.answerShown = false;
    return this.line(this.styles.answerEnd);
  }

  /** Whether a thinking block is open (a host that stops early closes it). */
  get thinking(): boolean {
    return this.inThinking;
  }

  /** The host printed something itself (a prompt answer echoed by readline): the cursor is at a line start. */
  markLineStart(): void {
    this.atLineStart = true;
  }

  /** A host that prints a question's text itself (readline) gets the line break that must come before it. */
  openPromptLine(): string {
    if (!this.linear) return this.endAnswer() + this.prompt('');
    this.answerShown = false;
    return this.line(SCREEN_READER.question) + this.prompt('');
  }

  private stream(styled: string, raw: string): string {
    if (raw) this.atLineStart = raw.endsWith('\n');
    return styled;
  }

  private line(text: string): string {
    const prefix = this.atLineStart ? '' : '\n';
    this.atLineStart = true;
    return `${prefix}${text}\n`;
  }

  private prompt(text: string): string {
    const prefix = this.atLineStart ? '' : '\n';
    this.atLineStart = false;
    return `${prefix}${text}`;
  }

  private newline(text: string): string {
    this.atLineStart = true;
    return `${text}\n`;
  }
}

/**
 * The summary shown before a tool call: server and its description, tool and its first line, every argument.
 * Each label starts its own line and what follows it stays on that line, inert, so a server's text can neither
 * hide the labels nor imitate them. The arguments are JSON, which shows their control characters as `\u001b`.
 */
export function toolCallSummary(
  event: Extract<EngineEvent, { type: 'tool-call' }>,
  label: (text: string) => string = (text) => text,
): string {
  const server = inertLine(
    event.serverDescription ? `${event.server} (${event.serverDescription})` : event.server,
  );
  const tool = inertLine(event.toolDescription ? `${event.tool}: ${event.toolDescription}` : event.tool);
  const args = approvalText(JSON.stringify(event.arguments, null, 2));
  return [
    `${label('MCP server:')} ${server}`,
    `${label('Tool:')} ${tool}`,
    label('Arguments:'),
    ...args.split('\n').map((line) => `  ${line}`),
  ].join('\n');
}

function questionText(question: string, options?: string[]): string {
  if (!options?.length) return question;
  return [question, ...options.map((o, i) => `  ${i + 1}) ${o}`)].join('\n');
}
