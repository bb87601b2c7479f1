import { Transform, type TransformCallback } from 'node:stream';

const CTRL_C = 0x03;

/**
 * Keys typed while a turn runs: held back from readline, so they are never drawn into the streaming
 * answer, and handed over when the prompt is back, where readline shows them with the cursor at the end. Ctrl+C
 * is never held: it keeps its meaning during a turn.
 */
export class TypeAheadGate extends Transform {
  readonly isTTY = true;
  private held: Buffer[] = [];
  private holding = false;

  constructor(
    private readonly tty: { setRawMode?(mode: boolean): unknown },
    private readonly onInterrupt: () => void,
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

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.holding) return done(null, chunk);
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
