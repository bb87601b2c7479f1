import { AsyncLocalStorage } from 'node:async_hooks';

/** What is known of a stream's lines: how many complete ones reached the SDK, and the bad one it reported, if any. */
export interface LineWatch {
  passed: number;
  bad?: string;
}

const contexts = new AsyncLocalStorage<LineWatch>();
/** The streams being read now. */
const reading = new Set<LineWatch>();
/** The stream that last read while it was the only one: a warning outside any stream's context is its. */
let alone: LineWatch | undefined;
/** Our console.warn, put in front of whichever one is current (a test's spy included) when a stream starts. */
let filter: typeof console.warn | undefined;

/**
 * Catches a line an `ollama` SDK stream cannot parse. The SDK drops such a line and prints `invalid json: <line>`
 * through console.warn itself (the part is lost, and its words land on the terminal); our byte check before it only
 * sees lines that start with `{` and end with `}`. The warning is taken here for the stream it belongs to, kept off
 * the screen, and the stream then fails as any malformed response does. Returns the function that stops watching.
 */
export function watchLines(watch: LineWatch): () => void {
  if (console.warn !== filter) {
    const warn = console.warn.bind(console);
    filter = (...args: unknown[]) => {
      const owner = args[0] === 'invalid json: ' ? (contexts.getStore() ?? alone) : undefined;
      if (owner) owner.bad ??= String(args[1]);
      else warn(...args);
    };
    console.warn = filter;
  }
  reading.add(watch);
  return () => {
    reading.delete(watch);
    if (alone === watch) alone = undefined;
  };
}

/**
 * Runs one read of a watched stream. While it is the only stream, the warning can only be its own: the read runs
 * as it is (an async context per read costs a long answer's many small parts about a tenth of its time). With
 * several, each read runs in its stream's async context, which the SDK's parsing inherits.
 */
export function watchedStep<T>(watch: LineWatch, step: () => Promise<T>): Promise<T> {
  if (reading.size > 1) return contexts.run(watch, step);
  alone = watch;
  return step();
}
