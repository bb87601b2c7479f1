import { TableBlock } from './markdown-table.js';
import { CodeBlock, type Highlighter } from './code-block.js';
import { readLineStart } from './markdown-blocks.js';
import { LinkReader } from './markdown-link.js';
import { flanking, runStyles, type Emphasis } from './markdown-emphasis.js';
import { SGR } from './markdown-styles.js';

export type { Highlighter } from './code-block.js';

export interface MarkdownOptions {
  /** OSC 8 hyperlinks (the terminal supports them); otherwise a link shows its URL after its text. */
  hyperlinks: boolean;
  highlight?: Highlighter;
  /** The screen's width in cells now: a table wider than that is shown as written. */
  columns?: () => number | undefined;
  /**
   * Marks where each code block starts and ends with an OSC sequence (a window offers a Copy button there); a
   * terminal is not given them.
   */
  codeMarks?: boolean;
}

/** The OSC number of the code block marks: `start`, then `end;` and the code, URI-encoded. */
export const CODE_MARK_OSC = 7717;

// Bounds on what is held back: text is printed as it arrives except short pieces (links: markdown-link.ts).
const MAX_HEAD = 200;

const HR_WIDTH = 40;
const ESCAPABLE = '\\`*_{}[]()#+-.!~|>';

/**
 * Renders a model's Markdown answer for a terminal as it streams: headings, bold, italic, strikethrough,
 * inline code, lists, block quotes, links, rules and fenced code with a language label and highlighting. What is
 * printed is never redrawn: only an unfinished marker (the start of a line, a `*` run, a link, one code line) is
 * held, and each hold is bounded. It reads one character at a time, so the output is the same however the text
 * is cut into deltas. Tables are held until they end and drawn (markdown-table.ts); anything it does not
 * recognise is printed as written.
 */
export class MarkdownStream {
  private mode: 'line-start' | 'inline' | 'raw-line' | 'code' | 'table' = 'line-start';
  private out = '';
  /** The start of a line, held until it shows what block it opens. */
  private head = '';
  private heading = 0;
  private readonly active = new Set<Emphasis>();
  /** The backtick run that opened the current code span, 0 outside one. */
  private codeSpan = 0;
  /** A run of `*`, `_`, `~` or backticks, held until the next character shows whether it opens or closes. */
  private run = '';
  private escape = false;
  private link: LinkReader | undefined;
  /** The last character printed on this line (for the flanking rules of `*` and `_`). */
  private prev = '';
  /** The fenced code block being read (mode `code`). */
  private code: CodeBlock | undefined;
  /** The table being held (mode `table`). */
  private table: TableBlock | undefined;

  constructor(private readonly options: MarkdownOptions) {}

  /** Sets the highlighter once it has loaded (it is loaded lazily by the host). */
  set highlighter(highlight: Highlighter | undefined) {
    this.options.highlight = highlight;
  }

  /** The styled text to print for `text`. */
  push(text: string): string {
    for (let i = 0; i < text.length; i++) {
      // Plain runs of a line go out in one piece.
      if (this.mode === 'inline' && !this.link && this.run === '' && !this.escape) {
        const stop = this.nextSpecial(text, i);
        if (stop > i) {
          this.emit(text.slice(i, stop));
          i = stop - 1;
          continue;
        }
      } else if (this.mode === 'code') {
        // The rest of a code line in one piece; its line break goes through feedCode.
        const newline = text.indexOf('\n', i);
        const stop = newline === -1 ? text.length : newline;
        if (stop > i) {
          this.out += this.code!.text(text.slice(i, stop));
          i = stop - 1;
          continue;
        }
      }
      this.feed(text.charAt(i));
    }
    if (this.code) this.out += this.code.printLines();
    return this.take();
  }

  /** The end of the answer (or another event in between): what is held is printed, styles are closed. */
  flush(): string {
    if (this.table) {
      this.out += this.table.end();
      this.table = undefined;
      this.newLine();
    }
    if (this.mode === 'line-start' && this.head !== '') this.decideHead(true);
    if (this.code) this.out += this.code.end();
    this.endInline();
    const atLineStart = this.mode === 'line-start' || this.mode === 'code';
    if (!atLineStart) this.mode = 'inline';
    return this.take();
  }

  /**
   * The end of an answer: what is open is closed (a code block, also one whose closing fence came without a line
   * break, a held line start, styles), so the next answer starts afresh at the start of a line.
   */
  finish(): string {
    if (this.code) {
      this.out += this.code.finish();
      this.closeCode(this.code);
    }
    if (this.mode === 'code') this.mode = 'line-start';
    const out = this.flush();
    this.mode = 'line-start';
    this.head = '';
    this.prev = '';
    return out;
  }

  private take(): string {
    const out = this.out;
    this.out = '';
    return out;
  }

  private emit(text: string): void {
    this.out += text;
    this.prev = text.charAt(text.length - 1);
  }

  /** Where the next character that is not plain text is. */
  private nextSpecial(text: string, from: number): number {
    // A regex search runs as native code from the start; a loop over characters is slow until V8 optimises it.
    const special = this.codeSpan > 0 ? IN_CODE_SPAN : INLINE_SPECIAL;
    special.lastIndex = from;
    return special.test(text) ? special.lastIndex - 1 : text.length;
  }

  private feed(c: string): void {
    switch (this.mode) {
      case 'line-start':
        return this.feedHead(c);
      case 'inline':
        return this.feedInline(c);
      case 'raw-line':
        this.out += c;
        if (c === '\n') this.newLine();
        return;
      case 'code':
        return this.feedCode(c);
      case 'table':
        return this.feedTable(c);
    }
  }

  // ---- Blocks: decided from the start of each line.

  private feedHead(c: string): void {
    if (this.head === '') {
      // Most lines start with a letter: plain text, no need to look further.
      if (!BLOCK_STARTERS.includes(c)) return this.startInline('', c);
      // An empty line: nothing to style.
      if (c === '\n') return this.newLine('\n');
    }
    if (c === '\n') {
      this.head += c;
      this.decideHead(true);
      return;
    }
    this.head += c;
    this.decideHead(this.head.length >= MAX_HEAD);
  }

  /** Acts on what the held start of a line opens (markdown-blocks.ts), or keeps holding it. */
  private decideHead(final: boolean): void {
    const start = readLineStart(this.head, final);
    switch (start.kind) {
      case 'wait':
        return;
      case 'quote':
        // A dim bar, then the rest of the line is read as a line of its own.
        this.out += `${start.indent}${SGR.dimOn}│${SGR.dimOff} `;
        this.head = start.after;
        if (this.head !== '') this.decideHead(final);
        return;
      case 'heading':
        return this.startHeading(start.indent, start.level, start.text);
      case 'fence':
        return this.openFence(start.indent, start.marker, start.language);
      case 'item':
        return this.startInline(start.prefix, start.text);
      case 'rule':
        return this.printRule(start.indent, start.newline);
      case 'table': {
        this.mode = 'table';
        this.table = new TableBlock(this.options.columns?.(), (cell) => this.inline(cell));
        const text = this.head;
        this.head = '';
        for (const ch of text) this.feed(ch);
        return;
      }
      case 'paragraph':
        return this.startInline(start.indent, start.text);
    }
  }

  private startHeading(indent: string, level: number, text: string): void {
    this.heading = level;
    this.out += indent + (level <= 2 ? SGR.headingMajorOn : SGR.headingOn);
    this.startInline('', text);
  }

  /** Prints `prefix` and reads `text` as the inline content of the line. */
  private startInline(prefix: string, text: string): void {
    this.head = '';
    this.mode = 'inline';
    this.out += prefix;
    this.prev = '';
    for (const ch of text) this.feed(ch);
  }

  private printRule(indent: string, newline: boolean): void {
    this.head = '';
    this.out += `${indent}${SGR.dimOn}${'─'.repeat(HR_WIDTH)}${SGR.dimOff}`;
    if (newline) this.newLine('\n');
    else this.mode = 'inline';
  }

  private newLine(text = ''): void {
    this.out += text;
    this.mode = 'line-start';
    this.head = '';
    this.prev = '';
  }

  // ---- Tables (markdown-table.ts): held row by row until a line that is not one, then drawn.

  private feedTable(c: string): void {
    const step = this.table!.feed(c);
    if (!step) return;
    this.table = undefined;
    this.out += step.out;
    if ('overflow' in step) return void (this.mode = 'raw-line');
    // The table has ended: read the line after it as any other.
    this.newLine();
    for (const ch of step.reread) this.feed(ch);
  }

  /** `text` as the inline content of one line (a table cell): emphasis, code and links, no blocks. */
  private inline(text: string): string {
    const cell = new MarkdownStream({ ...this.options, columns: undefined });
    cell.startInline('', text);
    return cell.flush();
  }

  // ---- Fenced code (code-block.ts).

  private openFence(indent: string, marker: string, language: string): void {
    this.code = new CodeBlock(marker, language, () => this.options.highlight);
    if (this.options.codeMarks) this.out += `\x1b]${CODE_MARK_OSC};start\x07`;
    this.out += this.code.label(indent);
    this.head = '';
    this.mode = 'code';
  }

  private feedCode(c: string): void {
    const code = this.code!;
    this.out += c === '\n' ? code.lineBreak() : code.text(c);
    if (!code.closed) return;
    this.closeCode(code);
    this.newLine();
  }

  private closeCode(code: CodeBlock): void {
    this.code = undefined;
    const text = code.code;
    if (this.options.codeMarks && text !== undefined)
      this.out += `\x1b]${CODE_MARK_OSC};end;${encodeURIComponent(text)}\x07`;
  }

  // ---- Inline: emphasis, code spans, links.

  private feedInline(c: string): void {
    if (this.link) return this.feedLink(c);
    if (this.run !== '') {
      const same = c === this.run.charAt(0) && (c === '`' || this.run.length < 3);
      if (same) {
        this.run += c;
        return;
      }
      this.resolveRun(c);
    }
    if (this.escape) {
      this.escape = false;
      this.emit(ESCAPABLE.includes(c) ? c : `\\${c}`);
      return;
    }
    if (c === '\n') return this.endLine();
    if (this.codeSpan > 0) {
      if (c === '`') this.run = c;
      else this.emit(c);
      return;
    }
    if (c === '\\') this.escape = true;
    else if (c === '*' || c === '_' || c === '~' || c === '`') this.run = c;
    else if (c === '[') this.link = new LinkReader();
    else this.emit(c);
  }

  /** A held run of markers, now that `next` shows what follows it ('' at the end of the text). */
  private resolveRun(next: string): void {
    const run = this.run;
    this.run = '';
    if (run.charAt(0) === '`') return this.resolveBackticks(run);
    if (this.codeSpan > 0) return this.emit(run);
    const styles = runStyles(run);
    const { canOpen, canClose } = flanking(run, this.prev, next);
    const closes = canClose && styles.length > 0 && styles.every((s) => this.active.has(s));
    if (closes) {
      for (const s of styles) this.setStyle(s, false);
    } else if (canOpen && styles.length > 0) {
      for (const s of styles) this.setStyle(s, true);
    } else this.emit(run);
  }

  private resolveBackticks(run: string): void {
    if (this.codeSpan === 0) {
      this.codeSpan = run.length;
      this.out += SGR.codeOn;
    } else if (run.length === this.codeSpan) {
      this.codeSpan = 0;
      this.out += SGR.codeOff;
    } else this.emit(run);
  }

  private setStyle(style: Emphasis, on: boolean): void {
    if (on) this.active.add(style);
    else this.active.delete(style);
    this.out += SGR[`${style}${on ? 'On' : 'Off'}`];
    // SGR 22 ends bold and dim alike: a heading keeps its bold.
    if (!on && style === 'bold' && this.heading > 0) this.out += SGR.headingOn;
    // A closing marker sits right after text: the flanking rules must not see the marker as a space.
    if (!on) this.prev = 'x';
  }

  private feedLink(c: string): void {
    const link = this.link!;
    const step = link.feed(c);
    if (step === 'held') return;
    this.link = undefined;
    if (step === 'done') return this.emit(link.print(this.options.hyperlinks));
    // Not a link after all: what was held is read again as text, then `c`.
    this.emit('[');
    for (const ch of link.held()) this.feedInline(ch);
    this.feedInline(c);
  }

  private endLine(): void {
    this.endInline();
    this.newLine('\n');
  }

  /** Closes what is open at the end of a line or of the text. */
  private endInline(): void {
    if (this.link) {
      this.emit(`[${this.link.held()}`);
      this.link = undefined;
    }
    if (this.run !== '') this.resolveRun('');
    if (this.escape) {
      this.escape = false;
      this.emit('\\');
    }
    if (this.codeSpan > 0) {
      this.codeSpan = 0;
      this.out += SGR.codeOff;
    }
    if (this.active.size > 0) for (const style of [...this.active]) this.setStyle(style, false);
    if (this.heading > 0) {
      this.heading = 0;
      this.out += SGR.headingOff;
    }
  }
}

const INLINE_SPECIAL = /[\\`*_~[\n]/g;
const IN_CODE_SPAN = /[`\n]/g;
/** The characters that may begin a line that is not a paragraph (or indentation before one). */
const BLOCK_STARTERS = ' \t\n>#`~-*_+|0123456789';
