import type { ChatStreamPart } from '../types/chat-stream.js';
import type { Logger } from '../logging/logger.js';
import { ProviderError, type ProviderErrorCode } from '../errors/provider-error.js';
import type { ChatModel, ChatRequest } from './chat-model.js';
import { cancelledError } from './provider-errors.js';
import { formatSeconds } from './timeouts.js';

/** Emitted just before the wait of a retry (R-PROV-4), so the host can show one dim line. */
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

/** The delays of R-PROV-4 for `unavailable` and `timeout`. */
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
 * Streams one answer with the retries of R-PROV-4: `unavailable`/`timeout` up to 2 retries after 250 and 750 ms,
 * `rate-limit` once after Retry-After (else 5 s); never once any text, reasoning or tool call has been yielded,
 * never for auth, model-not-found, bad-request, context-overflow (the engine trims and retries that itself) or
 * errors reported inside the stream. Yields a `retry` part before each wait and logs it at warn.
 */
export async function* streamWithRetries(
  model: ChatModel,
  request: ChatRequest,
  signal: AbortSignal,
  options: RetryOptions,
): AsyncGenerator<ChatStreamPart | RetryPart> {
  const sleep = options.sleep ?? abortableSleep;
  let transientRetries = 0;
  let rateLimitRetries = 0;
  for (let attempt = 1; ; attempt++) {
    let produced = false;
    try {
      for await (const part of model.stream(request, signal)) {
        if (part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-call')
          produced = true;
        yield part;
      }
      return;
    } catch (error) {
      if (!(error instanceof ProviderError) || produced || signal.aborted) throw error;
      const delayMs = retryDelay(error, transientRetries, rateLimitRetries);
      if (delayMs === undefined) throw error;
      if (error.code === 'rate-limit') rateLimitRetries++;
      else transientRetries++;
      const budget = error.code === 'rate-limit' ? 1 : TRANSIENT_RETRY_DELAYS_MS.length;
      const used = error.code === 'rate-limit' ? rateLimitRetries : transientRetries;
      const notice = `${error.message.replace(/\.$/, '')}; retrying in ${formatSeconds(delayMs)} s (${used} of ${budget}).`;
      options.logger.warn(`${model.provider}/${model.modelId}: ${notice}`);
      yield { type: 'retry', attempt, delayMs, code: error.code, message: error.message, notice };
      await sleep(delayMs, signal);
    }
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
