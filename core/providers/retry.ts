import type { ChatStreamPart } from '../types/chat-stream.js';
import type { Logger } from '../logging/logger.js';
import { ProviderError, type ProviderErrorCode } from '../errors/provider-error.js';
import type { ChatModel, ChatRequest } from './chat-model.js';
import { cancelledError } from './provider-errors.js';
import { formatSeconds } from './timeouts.js';

/** Emitted just before the wait of a retry, so the host can show one dim line. */
export interface RetryPart {
  type: 'retry';
  /** 1 for the first retry. */
  attempt: number;
  /** How long we wait before sending again. */
  delayMs: number;
  /** What failed. */
  code: ProviderErrorCode;
  message: string;
  /** One line for the user, e.g. `OpenAI is unavailable (HTTP 503): …; retrying in 0.3 s (1 of 2).` */
  notice: string;
}

/** The waits before retrying `unavailable` and `timeout`. */
export const TRANSIENT_RETRY_DELAYS_MS = [250, 750] as const;
/** Wait when a 429 has no usable Retry-After. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 5_000;
/** A 429 asking for a longer wait than this is reported at once instead of waited out. */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;

export interface RetryOptions {
  logger: Logger;
  /** Abortable sleep; tests inject one that records the delay and returns at once. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Streams one answer, retried where a retry can help: `unavailable`/`timeout` up to 2 retries after 250 and 750 ms,
 * `rate-limit` once after Retry-After (else 5 s); never once any text, reasoning or tool call has been yielded,
 * never for auth, model-not-found, bad-request, context-overflow (the engine trims and retries that itself) or
 * errors reported inside the stream. Yields a `retry` part before each wait and logs it at warn.
 * Errors are thrown as they came (ProviderError); a cancel during a wait throws `cancelled`.
 */
export function streamWithRetries(
  model: ChatModel,
  request: ChatRequest,
  signal: AbortSignal,
  options: RetryOptions,
): AsyncIterableIterator<ChatStreamPart | RetryPart> {
  return new RetryingStream(model, request, signal, options);
}

type Result = IteratorResult<ChatStreamPart | RetryPart, undefined>;

/**
 * A hand-written iterator rather than an async generator: once the answer has started no retry is possible, and
 * from then on `next()` hands out the adapter's own promises (no extra layer per part on a 1 MB answer).
 */
class RetryingStream implements AsyncIterableIterator<ChatStreamPart | RetryPart> {
  private inner: AsyncIterator<ChatStreamPart> | undefined;
  private committed = false;
  private attempt = 1;
  private transientRetries = 0;
  private rateLimitRetries = 0;
  private waitMs: number | undefined;
  private closed = false;

  constructor(
    private readonly model: ChatModel,
    private readonly request: ChatRequest,
    private readonly signal: AbortSignal,
    private readonly options: RetryOptions,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<Result> {
    if (this.committed) return this.inner!.next() as Promise<Result>;
    if (this.closed) return Promise.resolve({ done: true, value: undefined });
    return this.nextBeforeContent();
  }

  async return(): Promise<Result> {
    const inner = this.inner;
    this.inner = undefined;
    this.committed = false;
    this.closed = true;
    await inner?.return?.();
    return { done: true, value: undefined };
  }

  private async nextBeforeContent(): Promise<Result> {
    if (this.waitMs !== undefined) {
      const ms = this.waitMs;
      this.waitMs = undefined;
      await (this.options.sleep ?? abortableSleep)(ms, this.signal);
      this.attempt++;
    }
    this.inner ??= this.model.stream(this.request, this.signal)[Symbol.asyncIterator]();
    try {
      const result = await this.inner.next();
      const type = result.done ? undefined : result.value.type;
      if (type === 'text-delta' || type === 'reasoning-delta' || type === 'tool-call') this.committed = true;
      return result as Result;
    } catch (error) {
      this.inner = undefined;
      return { done: false, value: this.retryOrThrow(error) };
    }
  }

  private retryOrThrow(error: unknown): RetryPart {
    if (!(error instanceof ProviderError) || this.signal.aborted) throw error;
    const delayMs = retryDelay(error, this.transientRetries, this.rateLimitRetries);
    if (delayMs === undefined) throw error;
    const isRateLimit = error.code === 'rate-limit';
    const used = isRateLimit ? ++this.rateLimitRetries : ++this.transientRetries;
    const budget = isRateLimit ? 1 : TRANSIENT_RETRY_DELAYS_MS.length;
    const notice = `${error.message.replace(/\.$/, '')}; retrying in ${formatSeconds(delayMs)} s (${used} of ${budget}).`;
    this.options.logger.warn(`${this.model.provider}/${this.model.modelId}: ${notice}`);
    this.waitMs = delayMs;
    return {
      type: 'retry',
      attempt: this.attempt,
      delayMs,
      code: error.code,
      message: error.message,
      notice,
    };
  }
}

function retryDelay(
  error: ProviderError,
  transientRetries: number,
  rateLimitRetries: number,
): number | undefined {
  // The mappers mark errors reported inside the stream, auth, bad requests… as not retryable.
  if (!error.retryable) return undefined;
  switch (error.code) {
    case 'unavailable':
    case 'timeout':
      return TRANSIENT_RETRY_DELAYS_MS[transientRetries];
    case 'rate-limit': {
      if (rateLimitRetries >= 1) return undefined;
      const wait = error.details.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;
      return wait > MAX_RATE_LIMIT_WAIT_MS ? undefined : wait;
    }
    default:
      return undefined;
  }
}

/** setTimeout as a promise that rejects with a `cancelled` ProviderError when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelledError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
