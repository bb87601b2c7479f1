import { SGR } from './markdown-styles.js';

/** Turns lines of code into styled text (syntax highlighting), or undefined when it cannot. */
export type Highlighter = (code: string, language: string) => string | undefined;

// A code line is held until it is whole (text may not wait long on screen): a longer one goes out as it comes.
const MAX_CODE_LINE = 2000;
/** The longest code a Copy button is offered for. */
const MAX_SOURCE = 1_000_000;
/** Code lines a new line is highlighted after, at most. */
const CONTEXT_LINES = 50;

/**
 * The body of one fenced code block as it streams: a dim label, each line held until it is whole and then
 * highlighted, a dim rule at the closing fence. Every method returns the text to print now.
 */
export class CodeBlock {
  /** The line being read, and whether it grew too long to hold (it is then printed as it comes). */
  private line = '';
  private long = false;
  /** Lines completed since the last `printLines`: highlighted together (one highlighter call, not one per line). */
  private completed: string[] = [];
  /** The completed lines of the current window: the context new lines are highlighted after. */
  private earlier: string[] = [];
  private isClosed = false;
  /** The block's code as written, for a Copy button (undefined past MAX_SOURCE: not offered). */
  private source: string[] | undefined = [];
  private sourceChars = 0;
  /** A line too long to hold, as it came (printed already). */
  private longLine = '';

  constructor(
    private readonly marker: string,
    private readonly language: string,
    /** Read at each use: the host sets the highlighter once it has loaded. */
    private readonly highlighter: () => Highlighter | undefined,
  ) {}

  /** The label line that replaces the opening fence. */
  label(indent: string): string {
    return `${indent}${SGR.dimOn}───${this.language ? ` ${this.language}` : ''}${SGR.dimOff}\n`;
  }

  /** Whether the closing fence has come. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** The code as written (without its fences), or undefined when it is too long to offer for copying. */
  get code(): string | undefined {
    return this.source?.join('\n');
  }

  /** Text of a line, without line breaks. */
  text(text: string): string {
    if (this.long) {
      this.longLine += text;
      return text;
    }
    this.line += text;
    if (this.line.length <= MAX_CODE_LINE) return '';
    const out = this.printLines() + this.line;
    this.longLine = this.line;
    this.line = '';
    this.long = true;
    this.earlier = []; // the raw line breaks the context: highlighting starts afresh after it
    return out;
  }

  /** The end of a line: the closing fence ends the block. */
  lineBreak(): string {
    if (this.long) {
      this.long = false;
      this.keep(this.longLine);
      this.longLine = '';
      return '\n';
    }
    if (this.atClosingFence()) return this.close();
    this.keep(this.line);
    this.completed.push(this.line);
    this.line = '';
    return '';
  }

  /**
   * The end of the answer: the block is closed whether or not its closing fence came (models often end an answer
   * with the fence and no line break after it).
   */
  finish(): string {
    if (this.isClosed) return '';
    if (this.long) {
      this.keep(this.longLine);
      return `\n${this.close()}`;
    }
    if (this.atClosingFence()) return this.close();
    const held = this.end();
    return held ? `${held}\n${this.close()}` : this.close();
  }

  private keep(line: string): void {
    if (!this.source) return;
    this.sourceChars += line.length + 1;
    if (this.sourceChars > MAX_SOURCE) this.source = undefined;
    else this.source.push(line);
  }

  private atClosingFence(): boolean {
    const closing = this.line.trim();
    return closing.length >= this.marker.length && /^(`+|~+)$/.test(closing) && closing[0] === this.marker[0];
  }

  private close(): string {
    this.isClosed = true;
    this.line = '';
    return `${this.printLines()}${SGR.dimOn}───${SGR.dimOff}\n`;
  }

  /** The end of the answer without a closing fence: what is held, without a line break after it. */
  end(): string {
    const done = this.printLines();
    if (this.line === '') return done;
    this.keep(this.line);
    this.completed.push(this.line);
    this.line = '';
    return done + this.printLines().slice(0, -1);
  }

  /**
   * The lines completed so far, highlighted, each with its line break. They are highlighted after the block's earlier
   * lines (in windows of CONTEXT_LINES counted from the fence), so that a comment or a string spanning lines is
   * coloured the same however the stream was cut, at a bounded cost per call.
   */
  printLines(): string {
    const lines = this.completed;
    if (lines.length === 0) return '';
    this.completed = [];
    let out = '';
    for (let from = 0; from < lines.length;) {
      if (this.earlier.length === CONTEXT_LINES) this.earlier = [];
      const segment = lines.slice(from, from + CONTEXT_LINES - this.earlier.length);
      out += `${this.highlightAfter(segment)}\n`;
      this.earlier.push(...segment);
      from += segment.length;
    }
    return out;
  }

  /** `lines` in colours, read after the earlier lines; blank lines stay bare whatever surrounds them. */
  private highlightAfter(lines: string[]): string {
    const code = lines.join('\n');
    const highlight = this.highlighter();
    if (!highlight || !this.language || !code.trim()) return code;
    const earlier = this.earlier;
    const styled = highlight([...earlier, ...lines].join('\n'), this.language)?.split('\n');
    if (styled?.length !== earlier.length + lines.length) return code;
    return lines.map((line, i) => (line.trim() ? styled[earlier.length + i] : line)).join('\n');
  }
}
