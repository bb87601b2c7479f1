import { Transform, type TransformCallback } from 'node:stream';

const CTRL_C = 0x03;
const ESC = 0x1b;
/**
 * How long after a lone Escape the next byte would make it part of a sequence (Alt+key, an arrow): terminals send
 * a sequence in one write, so a pause this long means a person pressed Escape alone.
 */
const LONE_ESCAPE_MS = 50;

/**
 * Keys typed while a turn runs: held back from readline, so they are never drawn into the streaming
 * answer, and handed over when the prompt is back, where readline shows them with the cursor at the end. Ctrl+C
 * is never held: it keeps its meaning during a turn; nor is a lone Escape, which stops an answer as it does in the
 * window (and in Claude Code and codex).
 */
export class TypeAheadGate extends Transform {
  readonly isTTY = true;
  private held: Buffer[] = [];
  private holding = false;
  /** An Escape read alone, waiting to see whether a sequence follows it. */
  private escape: NodeJS.Timeout | undefined;

  constructor(
    private readonly tty: { setRawMode?(mode: boolean): unknown },
    private readonly onInterrupt: () => void,
    private readonly onEscape: () => void = () => undefined,
  ) {
    super();
  }

  /** readline switches raw mode through its input; this passes it on to the terminal. */
  setRawMode(mode: boolean): this {
    this.tty.setRawMode?.(mode);
    return this;
  }

  /** From now on, keep what is typed. */
  hold(): void {
    this.holding = true;
  }

  /** Hand over what was typed meanwhile, then let keys through again. */
  release(): void {
    this.holding = false;
    for (const chunk of this.held.splice(0)) this.push(chunk);
  }

  override _transform(given: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let chunk = given;
    if (this.escape) {
      // More came at once: the Escape began a sequence, which is kept whole.
      clearTimeout(this.escape);
      this.escape = undefined;
      chunk = Buffer.concat([Buffer.of(ESC), chunk]);
    }
    if (!this.holding) return done(null, chunk);
    if (chunk.length === 1 && chunk[0] === ESC) {
      this.escape = setTimeout(() => {
        this.escape = undefined;
        this.onEscape();
      }, LONE_ESCAPE_MS);
      return done();
    }
    // 0x03 never occurs inside a UTF-8 sequence: split on it, keep the rest in order.
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] !== CTRL_C) continue;
      if (i > start) this.held.push(Buffer.from(chunk.subarray(start, i)));
      start = i + 1;
      this.onInterrupt();
    }
    if (start < chunk.length) this.held.push(Buffer.from(chunk.subarray(start)));
    done();
  }
}
