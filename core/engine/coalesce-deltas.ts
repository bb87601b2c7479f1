import type { RetryPart } from '../providers/retry.js';
import type { ChatStreamPart } from '../types/chat-stream.js';

type Part = ChatStreamPart | RetryPart;
type Delta = Extract<Part, { type: 'text-delta' | 'reasoning-delta' }>;

function isDelta(part: Part): part is Delta {
  return part.type === 'text-delta' || part.type === 'reasoning-delta';
}

/**
 * The one place streamed text is batched, for every layer above it (hold-back, engine, host, screen, IPC). A
 * network read often carries hundreds of events, and each layer costs per event. The source is read as fast as it
 * yields; what it yields meanwhile is handed on together, consecutive deltas of one kind as one, after `batchMs`:
 * 0 for the next turn of the event loop (a terminal: one write per network read), 16 for one animation frame
 * (a window: a few dozen messages a second cross to the page, however fast the model streams). Order, errors
 * (after the parts before them) and the end are kept, and nothing waits for text that has not arrived.
 */
export function coalesceDeltas(source: AsyncIterable<Part>, batchMs = 0): AsyncIterableIterator<Part> {
  return new CoalescingStream(source[Symbol.asyncIterator](), batchMs);
}

class CoalescingStream implements AsyncIterableIterator<Part> {
  private readonly queue: Part[] = [];
  private started = false;
  private ended = false;
  private stopped = false;
  private failure: { error: unknown } | undefined;
  private waiting: (() => void) | undefined;
  private wakeScheduled = false;

  constructor(
    private readonly source: AsyncIterator<Part>,
    private readonly batchMs: number,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Part, undefined>> {
    if (!this.started) {
      this.started = true;
      void this.pump();
    }
    while (this.queue.length === 0) {
      if (this.ended) {
        const failure = this.failure;
        this.failure = undefined;
        if (failure) throw failure.error;
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
    return { done: false, value: this.queue.shift()! };
  }

  return(): Promise<IteratorResult<Part, undefined>> {
    this.stopped = true;
    this.ended = true;
    // Not awaited: a read in flight ends when the call's signal aborts it, and must not hold the caller.
    void this.source.return?.()?.catch(() => undefined);
    return Promise.resolve({ done: true, value: undefined });
  }

  private async pump(): Promise<void> {
    try {
      while (!this.stopped) {
        const result = await this.source.next();
        if (result.done || this.stopped) break;
        this.add(result.value);
      }
    } catch (error) {
      if (!this.stopped) this.failure = { error };
    } finally {
      this.ended = true;
      this.wake();
    }
  }

  private add(part: Part): void {
    const last = this.queue[this.queue.length - 1];
    if (last && isDelta(part) && last.type === part.type) {
      this.queue[this.queue.length - 1] = { type: part.type, text: last.text + part.text };
    } else {
      this.queue.push(part);
    }
    this.wake();
  }

  /** Wakes a waiting reader once the batch's time is up: the source has yielded all it had at hand. */
  private wake(): void {
    if (this.wakeScheduled || !this.waiting) return;
    this.wakeScheduled = true;
    const handOn = () => {
      this.wakeScheduled = false;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.();
    };
    if (this.batchMs > 0 && !this.ended) setTimeout(handOn, this.batchMs);
    else setImmediate(handOn);
  }
}
