import { HacError } from '../errors/hac-error.js';

/** Rejects with `message` when the promise has not settled within `ms`; the timer never keeps hac alive. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new HacError('mcp-timeout', message)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Rejects with a `cancelled` error as soon as the signal aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new HacError('cancelled', 'Cancelled.'));
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new HacError('cancelled', 'Cancelled.'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort!));
}

/** True when the promise settles within `ms`, false after `ms`. Keeps the process alive while waiting on purpose. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true as const,
    () => true as const,
  );
  return Promise.race([settled, elapsed]).finally(() => clearTimeout(timer));
}

/** Runs `run` with a signal of its own that follows `signal`, and stops following it when done. */
export async function withChildSignal<T>(
  signal: AbortSignal,
  run: (child: AbortSignal) => Promise<T>,
): Promise<T> {
  const child = new AbortController();
  const forward = () => child.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  try {
    return await run(child.signal);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}
