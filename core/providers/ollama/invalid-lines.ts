import { AsyncLocalStorage } from 'node:async_hooks';

/** The one bad line a stream's SDK reported, if any. */
export interface LineWatch {
  bad?: string;
}

const streams = new AsyncLocalStorage<LineWatch>();
let installed = false;

/**
 * Runs one step of an `ollama` SDK stream so that a line it cannot parse is caught. The SDK drops such a line and
 * prints `invalid json: <line>` through console.warn itself (the part is lost, and its words land on the
 * terminal); our byte check before it only sees lines that start with `{` and end with `}`. The warning is taken
 * here for the stream it belongs to (the step runs in that stream's async context), kept off the screen, and the
 * stream then fails as any malformed response does.
 */
export function watchedStep<T>(watch: LineWatch, step: () => Promise<T>): Promise<T> {
  if (!installed) {
    installed = true;
    const warn = console.warn.bind(console);
    console.warn = (...args: unknown[]) => {
      const current = streams.getStore();
      if (current && args[0] === 'invalid json: ') current.bad ??= String(args[1]);
      else warn(...args);
    };
  }
  return streams.run(watch, step);
}
