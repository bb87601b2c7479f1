import { eastAsianWidth } from 'get-east-asian-width';
import { isZeroWidth } from '../text/cell-width.js';
import { PROMPT } from './transcript.js';

/**
 * Characters that may not begin a line (closing punctuation, small kana, the prolonged sound mark, and the
 * ASCII marks that follow a word): they stay with the character before them.
 */
const NO_BREAK_BEFORE = new Set([
  ...'、。，．・：；？！）］｝〕〉》」』】〙〗〟ー々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ',
  ...'.,;:!?)]}%\'"',
]);

/** Characters that may not end a line (opening brackets and quotes): they stay with the character after them. */
const NO_BREAK_AFTER = new Set([...'([{（［｛〔〈《「『【〘〖〝‘“']);

/**
 * Hangul is written with spaces between words, as Latin is, and a Korean word is not broken: its syllables join
 * into one word. Han and kana have no spaces, so each is a word of its own (a line may break between any two).
 */
function isHangul(cp: number): boolean {
  return (
    (cp >= 0xac00 && cp <= 0xd7ff) ||
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x3130 && cp <= 0x318f) ||
    (cp >= 0xa960 && cp <= 0xa97f)
  );
}

/** Continuation lines of a list item, a block quote or the user's own message start under its text. */
const HANGING = new RegExp(`^( *(?:│ )*)((?:[•\\-*+]|\\d{1,3}[.)]|${PROMPT.trim()}) )?`);
/** How much of a line's start is kept to find its hanging indent. */
const HEAD_CHARS = 24;
const ASCII_RUN = /[ -~]+/y;

/**
 * Breaks lines at word boundaries for a screen `columns` wide, as text streams (xterm.js itself breaks
 * anywhere, mid-word). Hangul, kana and Han may break between any two characters. Nothing is held back: a word
 * that outgrows its line is erased from it (it is the last thing on the line, the cursor still there) and
 * printed again on the next. Korean words stay whole; Han and kana may break between any two characters, never
 * before closing punctuation nor after an opening bracket, as the line-breaking rules of those languages say. Escape sequences take no cells; styles open at a break are carried over it.
 */
export class WordWrap {
  private col = 0;
  /** The visible start of the current line, for its hanging indent. */
  private head = '';
  /** The SGR codes printed on this line: what is open when a break is inserted. */
  private styles = '';
  /** The word being printed (its text and codes, on screen already), where it started, and the styles then. */
  private word = '';
  private wordStart = -1;
  private wordStyles = '';
  /** Whether the word is one Han or kana character (the next character may start a new word right after it). */
  private wordIsSolo = false;
  /** Whether the last character printed opens a bracket or a quote (no break may follow it). */
  private opening = false;
  /** Whether the last character printed closes one (or is punctuation that ends a word). */
  private closing = false;
  /** An escape sequence cut by the end of a chunk. */
  private partial = '';

  constructor(private readonly columns: () => number) {}

  /** The text to write for `text`: the same, with line breaks where a word would not fit. */
  push(text: string): string {
    if (this.partial) {
      text = this.partial + text;
      this.partial = '';
    }
    const cols = this.columns();
    let out = '';
    for (let i = 0; i < text.length;) {
      const code = text.charCodeAt(i);
      if (code === 0x1b) {
        const end = escapeEnd(text, i);
        if (end < 0) {
          this.partial = text.slice(i);
          break;
        }
        out += this.control(text.slice(i, end));
        i = end;
        continue;
      }
      ASCII_RUN.lastIndex = i;
      const run = ASCII_RUN.exec(text)?.[0].slice(0, cols - this.col);
      if (run) {
        // Printable ASCII up to the line's end, spaces and all, in one piece (the common case, kept fast).
        this.asciiRun(run);
        out += run;
        i += run.length;
        continue;
      }
      const cp = text.codePointAt(i)!;
      const char = String.fromCodePoint(cp);
      i += char.length;
      out += this.character(char, cp, cols);
    }
    return out;
  }

  private character(char: string, cp: number, cols: number): string {
    if (char === '\n' || char === '\r') {
      this.newLine();
      return char;
    }
    if (char === ' ' || char === '\t') {
      this.endWord();
      if (this.col >= cols) return ''; // the line is full: the break before the next word replaces the space
      this.col = char === '\t' ? Math.min(cols, (Math.floor(this.col / 8) + 1) * 8) : this.col + 1;
      this.keepHead(char);
      return char;
    }
    if (isZeroWidth(cp)) {
      if (this.wordStart >= 0) this.word += char;
      return char;
    }
    const width = eastAsianWidth(cp);
    const hangul = isHangul(cp);
    this.startWord(char, width === 2 && !hangul, hangul);
    this.opening = NO_BREAK_AFTER.has(char);
    this.closing = NO_BREAK_BEFORE.has(char);
    let out = '';
    if (this.col + width > cols && this.col > 0) out = this.breakLine(cols, width);
    this.word += char;
    this.col += width;
    this.keepHead(char);
    return out + char;
  }

  /** Printable ASCII that fits on the line: the word it ends in is the one a later break may move. */
  private asciiRun(run: string): void {
    const space = run.lastIndexOf(' ');
    if (space === -1) {
      this.startWord(run.charAt(0), false);
      this.word += run;
      this.opening = NO_BREAK_AFTER.has(run.charAt(run.length - 1));
      this.closing = NO_BREAK_BEFORE.has(run.charAt(run.length - 1));
    } else if (space === run.length - 1) {
      this.endWord();
    } else {
      this.wordStart = this.col + space + 1;
      this.word = run.slice(space + 1);
      this.wordStyles = this.styles;
      this.wordIsSolo = false;
      this.opening = NO_BREAK_AFTER.has(run.charAt(run.length - 1));
      this.closing = NO_BREAK_BEFORE.has(run.charAt(run.length - 1));
    }
    this.col += run.length;
    this.keepHead(run);
  }

  /** A character of a word: it starts a new word after a space, and Han and kana are words of their own. */
  private startWord(char: string, solo: boolean, hangul = false): void {
    // A Korean particle stays with the bracket or quote that closes the word before it (`「대시보드」를`).
    const joins =
      NO_BREAK_BEFORE.has(char) || this.opening || (!solo && !this.wordIsSolo) || (hangul && this.closing);
    if (this.wordStart >= 0 && joins) {
      // What joined decides what may follow: after a Latin or Korean letter its word goes on (`（intern…`), after
      // closing punctuation a line may break again (`）snake_case`).
      this.wordIsSolo = solo;
      return;
    }
    this.wordStart = this.col;
    this.word = '';
    this.wordStyles = this.styles;
    this.wordIsSolo = solo;
  }

  private endWord(): void {
    this.wordStart = -1;
    this.word = '';
    this.wordIsSolo = false;
    this.opening = false;
    this.closing = false;
  }

  private control(sequence: string): string {
    if (sequence.startsWith('\x1b[') && sequence.endsWith('m')) this.styles += sequence;
    if (this.wordStart >= 0) this.word += sequence;
    return sequence;
  }

  /**
   * A line break before the next character (`width` cells): the word it belongs to moves to the next line
   * with it when it fits there.
   */
  private breakLine(cols: number, width: number): string {
    const hang = this.hangingIndent(cols);
    const wordWidth = this.col - this.wordStart;
    const moves = this.word !== '' && this.wordStart > hang.width && hang.width + wordWidth + width <= cols;
    // Styles off for the erase and the indent, then back on for the text.
    if (moves) {
      const out = `\x1b[${this.wordStart + 1}G\x1b[0m\x1b[K\r\n${hang.text}${this.wordStyles}${this.word}`;
      this.col = hang.width + wordWidth;
      this.wordStart = hang.width;
      return out;
    }
    if (this.word !== '') {
      // A word longer than a line (a URL) is left to the terminal's own wrap: it stays one word there, so its
      // link is still found and a copy of it has no line break.
      this.col = 0;
      this.wordStart = 0;
      return '';
    }
    this.col = hang.width;
    this.wordStart = hang.width;
    this.wordStyles = this.styles;
    return `\x1b[0m\r\n${hang.text}${this.styles}`;
  }

  private hangingIndent(cols: number): { text: string; width: number } {
    const indent = HANGING.exec(this.head)?.[0] ?? '';
    if (indent.length === 0 || indent.length > cols / 2) return { text: '', width: 0 };
    const text = indent.replace(/[^│]/g, ' ').replace(/│/g, '\x1b[2m│\x1b[22m');
    return { text, width: indent.length };
  }

  private keepHead(text: string): void {
    if (this.head.length < HEAD_CHARS) this.head += text.slice(0, HEAD_CHARS - this.head.length);
  }

  private newLine(): void {
    this.col = 0;
    this.head = '';
    this.styles = '';
    this.endWord();
  }
}

/** Where the escape sequence at `start` ends, or -1 when the text ends first. */
function escapeEnd(text: string, start: number): number {
  const kind = text.charAt(start + 1);
  if (kind === '') return -1;
  if (kind === '[') {
    for (let i = start + 2; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x40 && c <= 0x7e) return i + 1;
    }
    return -1;
  }
  if (kind === ']') {
    for (let i = start + 2; i < text.length; i++) {
      if (text.charCodeAt(i) === 0x07) return i + 1;
      if (text.charCodeAt(i) === 0x1b && text.charAt(i + 1) === '\\') return i + 2;
    }
    return -1;
  }
  return start + 2;
}
