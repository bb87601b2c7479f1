import { ProviderError } from '../errors/provider-error.js';
import { cancelledError, type ErrorContext } from './provider-errors.js';
import { realTimers, type ChatModelOptions, type Timers } from './chat-model-options.js';

/**
 * The idle timeout fired mid-stream: the request was cancelled and what arrived so far is the
 * partial answer. The engine keeps it, adds `[response timed out]`, and shows this message.
 */
export class StalledStreamError extends ProviderError {
  constructor(readonly idleMs: number) {
    super(
      'timeout',
      `The model stopped responding (no data for ${formatSeconds(idleMs)} s); the partial answer was kept.`,
      {
        retryable: true,
        inStream: true,
      },
    );
  }
}

/** Whether an error is the mid-stream idle timeout (keep the partial answer) rather than a failure. */
export function isStalledStream(error: unknown): error is StalledStreamError {
  return error instanceof StalledStreamError;
}

/** `60`, `1.5`, `0.2`. */
export function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/**
 * One call's abort signal and watchdog: aborts on the caller's signal, when no first data arrives within
 * `firstByteMs`, or when the stream is silent for `idleMs` while we wait for it. Time the consumer spends
 * between parts does not count as silence. Timers are armed once and re-armed lazily (no per-chunk timers).
 */
/** The watchdog of one call to `options.model`, with its configured timeouts. */
export function callControlFor(
  signal: AbortSignal,
  options: ChatModelOptions,
  context: ErrorContext,
): CallControl {
  return new CallControl(signal, {
    firstByteMs: options.model.firstByteTimeoutMs,
    idleMs: options.model.idleTimeoutMs,
    timers: options.timers ?? realTimers,
    context,
  });
}

export class CallControl {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private reason: 'first-byte' | 'idle' | 'closed' | undefined;
  private gotFirstData = false;
  private waitingSince: number | undefined;
  private timer: unknown;
  private readonly onCallerAbort = () => this.controller.abort();

  constructor(
    private readonly caller: AbortSignal,
    private readonly options: { firstByteMs: number; idleMs: number; timers: Timers; context: ErrorContext },
  ) {
    this.signal = this.controller.signal;
    if (caller.aborted) this.controller.abort();
    else caller.addEventListener('abort', this.onCallerAbort, { once: true });
    this.waitingSince = options.timers.now();
    this.arm(options.firstByteMs);
  }

  /**
   * The next item of an SDK stream under this watchdog: waiting and data marked around it, an error mapped by
   * `fail`, and never an item the SDK had buffered once the call is cancelled. Undefined at the end.
   */
  async next<T>(iterator: AsyncIterator<T>, fail: (error: unknown) => ProviderError): Promise<T | undefined> {
    this.waiting();
    let next: IteratorResult<T>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw fail(error);
    }
    if (this.signal.aborted) throw fail(new Error('aborted'));
    if (next.done) return undefined;
    this.gotData();
    return next.value;
  }

  /** Call right before awaiting the next piece of the stream. */
  waiting(): void {
    this.waitingSince = this.options.timers.now();
  }

  /** Call when a piece arrived. */
  gotData(): void {
    this.waitingSince = undefined;
    if (!this.gotFirstData) {
      this.gotFirstData = true;
      this.arm(this.options.idleMs);
    }
  }

  /**
   * Bytes arrived from the server, whether or not they make a part (a keep-alive comment counts): the
   * silence starts again, and the first byte has come.
   */
  gotBytes(): void {
    if (this.waitingSince !== undefined) this.waitingSince = this.options.timers.now();
    if (!this.gotFirstData) {
      this.gotFirstData = true;
      this.arm(this.options.idleMs);
    }
  }

  /** The error to throw when this call was aborted (by the caller or a timeout); undefined otherwise. */
  abortError(): ProviderError | undefined {
    if (this.caller.aborted) return cancelledError();
    if (this.reason === 'first-byte') {
      const { model, configFile } = this.options.context;
      return new ProviderError(
        'timeout',
        `No response from ${model.label} within ${formatSeconds(this.options.firstByteMs)} s (firstByteTimeoutMs in ${configFile}).`,
        { retryable: true },
      );
    }
    if (this.reason === 'idle') return new StalledStreamError(this.options.idleMs);
    return undefined;
  }

  /** Stops the timers; when the stream was left unfinished, aborts the request so the connection closes. */
  dispose(finished: boolean): void {
    this.options.timers.clearTimeout(this.timer);
    this.caller.removeEventListener('abort', this.onCallerAbort);
    if (!finished && !this.controller.signal.aborted) {
      this.reason ??= 'closed';
      this.controller.abort();
    }
  }

  private arm(ms: number): void {
    const { timers } = this.options;
    timers.clearTimeout(this.timer);
    this.timer = timers.setTimeout(() => this.check(), ms);
  }

  private check(): void {
    if (this.controller.signal.aborted) return;
    if (!this.gotFirstData) {
      this.reason = 'first-byte';
      this.controller.abort();
      return;
    }
    const { idleMs, timers } = this.options;
    if (this.waitingSince === undefined) {
      this.arm(idleMs);
      return;
    }
    const silent = timers.now() - this.waitingSince;
    // 1 ms slack: timers may fire a hair early relative to performance.now().
    if (silent >= idleMs - 1) {
      this.reason = 'idle';
      this.controller.abort();
    } else {
      this.arm(idleMs - silent);
    }
  }
}
