/** The timer a batcher uses; tests inject one they drive by hand. */
export interface BatchClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface EventBatcher<T> {
  push(event: T): void;
  /** Sends what is queued now (before a close, or when order with another channel matters). */
  flush(): void;
  /** Flushes, then drops later pushes. */
  close(): void;
}

const realClock: BatchClock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Collects events for about one animation frame and hands them over as one batch (R-DESK-8): a model streaming
 * hundreds of deltas a second crosses IPC or a WebSocket a few dozen times, in order, nothing lost or repeated.
 */
export function createEventBatcher<T>(options: {
  send(batch: T[]): void;
  intervalMs?: number;
  clock?: BatchClock;
  /** Joins an event onto the one queued before it (adjacent text deltas), or returns undefined to keep both. */
  merge?(previous: T, next: T): T | undefined;
}): EventBatcher<T> {
  const clock = options.clock ?? realClock;
  const interval = options.intervalMs ?? 16;
  let queue: T[] = [];
  let timer: unknown;
  let closed = false;
  const flush = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    options.send(batch);
  };
  return {
    push(event) {
      if (closed) return;
      const last = queue.at(-1);
      const merged = last !== undefined ? options.merge?.(last, event) : undefined;
      if (merged !== undefined) queue[queue.length - 1] = merged;
      else queue.push(event);
      timer ??= clock.setTimeout(flush, interval);
    },
    flush,
    close() {
      flush();
      closed = true;
    },
  };
}

/** Adjacent text (or thinking) deltas as one: the same text in fewer, larger events for a process boundary. */
export function mergeDeltas<E extends { type: string }>(previous: E, next: E): E | undefined {
  if (previous.type !== next.type || (next.type !== 'text-delta' && next.type !== 'thinking-delta'))
    return undefined;
  return {
    ...next,
    text: (previous as unknown as { text: string }).text + (next as unknown as { text: string }).text,
  };
}
