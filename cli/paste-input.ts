import { StringDecoder } from 'node:string_decoder';
import { Transform, type TransformCallback } from 'node:stream';
import { PastedText, PasteFolds } from '../core/index.js';

/** Shown in the input line for each line break of a paste; turned back into `\n` when the line is sent. */
export const PASTED_NEWLINE = '\u2424'; // ␤
/** Shown for each tab of a paste (readline would take a tab for Tab completion); sent as `\t`. */
export const PASTED_TAB = '\u21e5'; // ⇥

const PASTE_START = Buffer.from('\x1b[200~');
const PASTE_END = Buffer.from('\x1b[201~');
const NEWLINE_MARKER = Buffer.from(PASTED_NEWLINE);
const ENABLE = '\x1b[?2004h';
const DISABLE = '\x1b[?2004l';

/**
 * The terminal input with bracketed paste: inside a paste, line breaks become ␤ so readline keeps a pasted
 * multi-line text as one message instead of sending each line, and nothing pasted acts as a key: control
 * characters and escape sequences are dropped (a pasted 0x03 does not exit, an arrow sequence does not recall
 * history). Typed, Alt+Enter, Ctrl+J and Enter right after a `\` insert a line break (␤) too; Enter sends.
 * Finds the markers in bytes, holding one split across reads until the next.
 */
export class PasteAwareInput extends Transform {
  readonly isTTY = true;
  private pasting = false;
  private decoder = new StringDecoder('utf8');
  private readonly pasted = new PastedText();
  /** The paste coming in, given to readline at its end: whole when short, else folded. */
  private pasteText = '';
  /** Long pastes of this run, by the placeholder that stands for each in the line. */
  readonly folds = new PasteFolds();
  private pending = Buffer.alloc(0);
  private flushLater: NodeJS.Timeout | undefined;
  /** The last byte typed (outside a paste): a `\` before Enter asks for a line break. */
  private lastTyped = -1;

  constructor(private readonly tty: NodeJS.ReadStream) {
    super();
  }

  /** readline switches raw mode through its input; this passes it on to the terminal. */
  setRawMode(mode: boolean): this {
    this.tty.setRawMode?.(mode);
    return this;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    clearTimeout(this.flushLater);
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    const out: Buffer[] = [];
    while (data.length) {
      const marker = this.pasting ? PASTE_END : PASTE_START;
      const at = data.indexOf(marker);
      const upTo = at === -1 ? data.length - partialMarkerLength(data, marker) : at;
      out.push(
        this.pasting ? this.pastedBytes(data.subarray(0, upTo)) : this.typedBytes(data.subarray(0, upTo)),
      );
      if (at === -1) {
        this.pending = Buffer.from(data.subarray(upTo));
        break;
      }
      if (this.pasting) out.push(this.pastedBytes(undefined));
      this.pasting = !this.pasting;
      data = data.subarray(at + marker.length);
    }
    done(null, Buffer.concat(out));
    // A held start of a marker that no more bytes follow is a key of its own: Escape, pressed alone.
    if (this.pending.length)
      this.flushLater = setTimeout(() => this.releasePending(), PARTIAL_MARKER_WAIT_MS);
  }

  private releasePending(): void {
    const held = this.pending;
    this.pending = Buffer.alloc(0);
    this.push(this.pasting ? this.pastedBytes(held) : this.typedBytes(held));
  }

  /**
   * Keys typed: Alt+Enter (`ESC CR` or `ESC LF`), Ctrl+J and Enter after a `\` (which Backspace then takes away)
   * become a line break in the line; everything else goes to readline as it came. Ctrl+J is an LF read on its own,
   * as a key press is: keys typed before hac put the terminal in raw mode arrive as one cooked line whose Enter is
   * an LF too, and that one must send.
   */
  private typedBytes(bytes: Buffer): Buffer {
    if (!bytes.includes(0x0a) && !bytes.includes(0x0d)) {
      if (bytes.length) this.lastTyped = bytes[bytes.length - 1]!;
      return bytes;
    }
    const out: number[] = [];
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      const next = bytes[i + 1];
      if (byte === 0x1b && (next === 0x0d || next === 0x0a)) {
        out.push(...NEWLINE_MARKER);
        i += 1;
      } else if (byte === 0x0a && bytes.length === 1) out.push(...NEWLINE_MARKER);
      else if (byte === 0x0d && this.lastTyped === 0x5c) out.push(0x7f, ...NEWLINE_MARKER);
      else out.push(byte);
      this.lastTyped = out.at(-1) ?? -1;
    }
    return Buffer.from(out);
  }

  /**
   * Bytes of a paste as readline gets them, all at its end (`undefined`): a long paste as one placeholder, so the
   * line is not thousands of rows (the line is expanded when it is sent, see `expand`).
   */
  private pastedBytes(bytes: Buffer | undefined): Buffer {
    this.pasteText += this.pasted.push(bytes ? this.decoder.write(bytes) : this.decoder.end());
    if (bytes) return Buffer.alloc(0);
    this.pasted.end();
    const text = this.folds.fold(this.pasteText);
    this.pasteText = '';
    return Buffer.from(text.replaceAll('\n', PASTED_NEWLINE).replaceAll('\t', PASTED_TAB));
  }

  /** A line as it is sent: pasted line breaks and tabs restored, long pastes put back whole. */
  expand(line: string): string {
    return this.folds.expand(restorePastedText(line));
  }
}

/** A terminal sends a paste marker in one write; bytes that start one and stay alone this long are keys. */
const PARTIAL_MARKER_WAIT_MS = 25;

/** How many bytes at the end of `data` could be the start of `marker` (wait for the next read to decide). */
function partialMarkerLength(data: Buffer, marker: Buffer): number {
  for (let n = Math.min(marker.length - 1, data.length); n > 0; n--) {
    if (data.subarray(data.length - n).equals(marker.subarray(0, n))) return n;
  }
  return 0;
}

/** Turns bracketed paste on for this terminal, and off again when the process exits. */
export function enableBracketedPaste(out: NodeJS.WriteStream): void {
  out.write(ENABLE);
  process.once('exit', () => out.write(DISABLE));
}

/** Cooked mode and no bracketed paste, for an exit that skips Node's own stdio reset. Errors (EIO) are ignored. */
export function restoreTerminal(): void {
  try {
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    if (process.stdout.isTTY) process.stdout.write(DISABLE);
  } catch {
    /* the terminal is gone */
  }
}

/** The text of an input line, with pasted line breaks and tabs restored. */
export function restorePastedText(line: string): string {
  return line.replaceAll(PASTED_NEWLINE, '\n').replaceAll(PASTED_TAB, '\t');
}

/** Text put into the input line (history, a draft) as a paste would put it there: text only, never keys. */
export function asInputLine(text: string): string {
  return new PastedText().push(text).replaceAll('\n', PASTED_NEWLINE).replaceAll('\t', PASTED_TAB);
}
