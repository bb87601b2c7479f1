import { asciiSet } from '../text/ascii-set.js';
import { readLineStart } from './markdown-blocks.js';
import { SGR } from './markdown-styles.js';

/** Turns lines of code into styled text (syntax highlighting), or undefined when it cannot. */
export type Highlighter = (line: string, language: string) => string | undefined;

export interface MarkdownOptions {
  /** OSC 8 hyperlinks (the terminal supports them); otherwise a link shows its URL after its text. */
  hyperlinks: boolean;
  highlight?: Highlighter;
}

type Emphasis = 'bold' | 'italic' | 'strike';

// Bounds on what is held back (R-STREAM-1): text is printed as it arrives except these short pieces.
const MAX_LINK_TEXT = 300;
const MAX_LINK_URL = 2000;
const MAX_CODE_LINE = 2000;
const MAX_HEAD = 200;

const HR_WIDTH = 40;
/** Code lines a new line is highlighted after, at most. */
const CONTEXT_LINES = 50;
const ESCAPABLE = '\\`*_{}[]()#+-.!~|>';

function isSpace(c: string): boolean {
  return c === '' || c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function isPunctuation(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 128) return ASCII_PUNCTUATION[code] === 1;
  return /[\p{P}\p{S}]/u.test(c);
}

function isAsciiWordChar(c: string): boolean {
  return /[A-Za-z0-9]/.test(c);
}

/**
 * Renders a model's Markdown answer for a terminal as it streams (issue 21): headings, bold, italic, strikethrough,
 * inline code, lists, block quotes, links, rules and fenced code with a language label and highlighting. What is
 * printed is never redrawn: only an unfinished marker (the start of a line, a `*` run, a link, one code line) is
 * held, and each hold is bounded. It reads one character at a time, so the output is the same however the text
 * is cut into deltas. Tables and anything it does not recognise are printed as written.
 */
export class MarkdownStream {
  private mode: 'line-start' | 'inline' | 'raw-line' | 'code' = 'line-start';
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
  private link: { phase: 'text' | 'paren' | 'url'; text: string; url: string } | undefined;
  /** The last character printed on this line (for the flanking rules of `*` and `_`). */
  private prev = '';
  /** The open fence; `earlier`: the completed lines of its current window, the context for highlighting. */
  private fence = { marker: '', language: '', line: '', long: false, earlier: [] as string[] };
  /** Code lines completed in this push: highlighted together (one highlighter call, not one per line). */
  private codeLines: string[] = [];

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
          this.codeText(text.slice(i, stop));
          i = stop - 1;
          continue;
        }
      }
      this.feed(text.charAt(i));
    }
    this.endCodeLines();
    return this.take();
  }

  /** The end of the answer (or another event in between): what is held is printed, styles are closed. */
  flush(): string {
    if (this.mode === 'line-start' && this.head !== '') this.decideHead(true);
    this.endCodeLines();
    if (this.mode === 'code' && this.fence.line !== '') {
      this.codeLines.push(this.fence.line);
      this.fence.line = '';
      this.endCodeLines(false);
    }
    this.endInline();
    const atLineStart = this.mode === 'line-start' || this.mode === 'code';
    if (!atLineStart) this.mode = 'inline';
    return this.take();
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
        this.mode = 'raw-line';
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

  // ---- Fenced code: a label, then each line highlighted once it is whole.

  private openFence(indent: string, marker: string, language: string): void {
    this.fence = { marker, language, line: '', long: false, earlier: [] };
    this.out += `${indent}${SGR.dimOn}───${language ? ` ${language}` : ''}${SGR.dimOff}\n`;
    this.head = '';
    this.mode = 'code';
  }

  private feedCode(c: string): void {
    const fence = this.fence;
    if (c !== '\n') return this.codeText(c);
    if (fence.long) {
      this.out += c;
      fence.long = false;
      return;
    }
    const closing = fence.line.trim();
    if (
      closing.length >= fence.marker.length &&
      /^(`+|~+)$/.test(closing) &&
      closing[0] === fence.marker[0]
    ) {
      this.endCodeLines();
      this.out += `${SGR.dimOn}───${SGR.dimOff}\n`;
      this.newLine();
      return;
    }
    this.codeLines.push(fence.line);
    fence.line = '';
  }

  /** Text of a code line (no line break): held until the line is whole, unless it is too long to hold. */
  private codeText(text: string): void {
    const fence = this.fence;
    if (fence.long) {
      // A code line too long to hold: the rest of it goes out as it comes, unhighlighted.
      this.out += text;
      return;
    }
    fence.line += text;
    if (fence.line.length > MAX_CODE_LINE) {
      this.endCodeLines();
      this.out += fence.line;
      fence.line = '';
      fence.long = true;
      fence.earlier = []; // the raw line breaks the context: highlighting starts afresh after it
    }
  }

  /**
   * Prints the code lines completed in this push, highlighted; `newline` after the last one. They are highlighted
   * after the block's earlier lines (in windows of CONTEXT_LINES counted from the fence), so that a comment or a
   * string spanning lines is coloured the same however the stream was cut, at a bounded cost per push.
   */
  private endCodeLines(newline = true): void {
    const lines = this.codeLines;
    if (lines.length === 0) return;
    this.codeLines = [];
    const fence = this.fence;
    const printed: string[] = [];
    for (let from = 0; from < lines.length;) {
      if (fence.earlier.length === CONTEXT_LINES) fence.earlier = [];
      const segment = lines.slice(from, from + CONTEXT_LINES - fence.earlier.length);
      printed.push(this.highlightAfter(fence.earlier, segment));
      fence.earlier.push(...segment);
      from += segment.length;
    }
    this.out += printed.join('\n') + (newline ? '\n' : '');
  }

  /** `lines` in colours, read after `earlier`; blank lines stay bare whatever surrounds them. */
  private highlightAfter(earlier: string[], lines: string[]): string {
    const code = lines.join('\n');
    const { highlight } = this.options;
    const language = this.fence.language;
    if (!highlight || !language || !code.trim()) return code;
    const styled = highlight([...earlier, ...lines].join('\n'), language)?.split('\n');
    if (styled?.length !== earlier.length + lines.length) return code;
    return lines.map((line, i) => (line.trim() ? styled[earlier.length + i] : line)).join('\n');
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
    else if (c === '[') this.link = { phase: 'text', text: '', url: '' };
    else this.emit(c);
  }

  /** A held run of markers, now that `next` shows what follows it ('' at the end of the text). */
  private resolveRun(next: string): void {
    const run = this.run;
    this.run = '';
    const marker = run.charAt(0);
    if (marker === '`') return this.resolveBackticks(run);
    if (this.codeSpan > 0) return this.emit(run);
    const styles: Emphasis[] =
      marker === '~'
        ? run.length === 2
          ? ['strike']
          : []
        : run.length === 1
          ? ['italic']
          : run.length === 2
            ? ['bold']
            : ['bold', 'italic'];
    // CommonMark's flanking rules; `*` and `~` between two ASCII letters or digits stay as written (`2*3*4`), which
    // CommonMark would not, while CJK text, written without spaces, still gets its emphasis.
    const prev = this.prev;
    const left = !isSpace(next) && (!isPunctuation(next) || isSpace(prev) || isPunctuation(prev));
    const right = !isSpace(prev) && (!isPunctuation(prev) || isSpace(next) || isPunctuation(next));
    const underscore = marker === '_';
    const canOpen =
      styles.length > 0 &&
      left &&
      (underscore ? !right || isPunctuation(prev) : !(isAsciiWordChar(prev) && isAsciiWordChar(next)));
    const canClose =
      styles.length > 0 &&
      right &&
      (!underscore || !left || isPunctuation(next)) &&
      styles.every((s) => this.active.has(s));
    if (canClose) {
      for (const s of styles) this.setStyle(s, false);
    } else if (canOpen) {
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
    const link = this.link;
    if (!link) return;
    if (link.phase === 'text') {
      if (c === ']') link.phase = 'paren';
      else if (c === '\n' || c === '[' || link.text.length >= MAX_LINK_TEXT) return this.failLink(c);
      else link.text += c;
      return;
    }
    if (link.phase === 'paren') {
      if (c === '(') link.phase = 'url';
      else return this.failLink(c);
      return;
    }
    if (c === ')' && link.url !== '') return this.printLink();
    if (isSpace(c) || link.url.length >= MAX_LINK_URL) return this.failLink(c);
    link.url += c;
  }

  private printLink(): void {
    const { text, url } = this.link ?? { text: '', url: '' };
    this.link = undefined;
    const label = text || url;
    if (this.options.hyperlinks) {
      this.emit(`${SGR.linkOn}\x1b]8;;${url}\x1b\\${label}\x1b]8;;\x1b\\${SGR.linkOff}`);
    } else {
      this.emit(`${SGR.linkOn}${label}${SGR.linkOff}`);
      if (url !== label) this.emit(` ${SGR.dimOn}(${url})${SGR.dimOff}`);
    }
  }

  /** Not a link after all: what was held is read again as text, then `c`. */
  private failLink(c: string): void {
    const link = this.link;
    if (!link) return;
    this.link = undefined;
    const held =
      link.text + (link.phase === 'text' ? '' : ']') + (link.phase === 'url' ? `(${link.url}` : '');
    this.emit('[');
    for (const ch of held) this.feedInline(ch);
    this.feedInline(c);
  }

  private endLine(): void {
    this.endInline();
    this.newLine('\n');
  }

  /** Closes what is open at the end of a line or of the text. */
  private endInline(): void {
    if (this.link) {
      const link = this.link;
      this.link = undefined;
      this.emit(
        `[${link.text}${link.phase === 'text' ? '' : ']'}${link.phase === 'url' ? `(${link.url}` : ''}`,
      );
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
const ASCII_PUNCTUATION = asciiSet('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
/** The characters that may begin a line that is not a paragraph (or indentation before one). */
const BLOCK_STARTERS = ' \t\n>#`~-*_+|0123456789';
