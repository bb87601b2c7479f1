import type { Logger } from '../logging/logger.js';
import type { ElicitationAnswer } from '../types/elicitation.js';

/** A reply to one of the engine's questions: typed text, or the answer to a server's form. */
export type Reply = string | ElicitationAnswer;

/**
 * A small async queue: producers push events while the engine's generator is busy awaiting something
 * else (a tool call that asks the user, a retry wait), and the generator drains them in order.
 */
export class EventChannel<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;

  push(item: T): void {
    this.items.push(item);
    this.wake?.();
    this.wake = undefined;
  }

  /** Yields queued items until `work` settles, then the rest; returns (or throws) what `work` did. */
  async *drainWhile<R>(work: Promise<R>): AsyncGenerator<T, R> {
    let settled = false;
    const done = work.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    void done.finally(() => {
      settled = true;
      this.wake?.();
    });
    for (;;) {
      while (this.items.length) yield this.items.shift() as T;
      if (settled) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    while (this.items.length) yield this.items.shift() as T;
    const outcome = await done;
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }
}

/**
 * Replies to the questions the engine is asking now, keyed by question id. A question is registered before it
 * is shown, so a reply can never arrive "early"; a reply to an id nobody is waiting for (a question withdrawn
 * by Ctrl+C, an id never asked) is refused, never kept for a later question.
 */
export class PendingAnswers {
  private readonly waiting = new Map<string, (reply: Reply) => void>();

  constructor(private readonly logger?: Logger) {}

  /** Registers question `id`; settles with its reply, or rejects when the signal aborts (the id is then dropped). */
  expect(id: string, signal: AbortSignal): Promise<Reply> {
    const reply = new Promise<Reply>((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(id);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, (given) => {
        this.waiting.delete(id);
        signal.removeEventListener('abort', onAbort);
        resolve(given);
      });
    });
    reply.catch(() => {}); // the asker may be gone before it awaits; its own await still sees the rejection
    return reply;
  }

  /** Delivers a reply; false (and a debug line) when nobody is waiting for `id`. */
  answer(id: string, reply: Reply): boolean {
    const resolve = this.waiting.get(id);
    if (!resolve) {
      this.logger?.debug(`Refused an answer to question ${id}: nobody is waiting for it.`);
      return false;
    }
    resolve(reply);
    return true;
  }
}
