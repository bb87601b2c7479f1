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

/** Pending replies to questions the engine asked, keyed by the question's id. */
export class PendingAnswers {
  private readonly waiting = new Map<string, (reply: string) => void>();
  private readonly early = new Map<string, string>();

  /** Waits for `answer(id, …)`; rejects when the signal aborts. */
  wait(id: string, signal: AbortSignal): Promise<string> {
    const ready = this.early.get(id);
    if (ready !== undefined) {
      this.early.delete(id);
      return Promise.resolve(ready);
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(id);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, (reply) => {
        signal.removeEventListener('abort', onAbort);
        resolve(reply);
      });
    });
  }

  /** Delivers a reply. Returns false for an id nobody asked. A reply may arrive before the wait starts. */
  answer(id: string, reply: string): boolean {
    const resolve = this.waiting.get(id);
    if (resolve) {
      this.waiting.delete(id);
      resolve(reply);
      return true;
    }
    this.early.set(id, reply);
    return true;
  }
}
