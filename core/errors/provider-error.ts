import { HacError } from './hac-error.js';

/** The normalised failure classes of every provider (R-PROV-3). */
export type ProviderErrorCode =
  | 'auth'
  | 'model-not-found'
  | 'rate-limit'
  | 'unavailable'
  | 'timeout'
  | 'context-overflow'
  | 'bad-request'
  | 'cancelled';

/** A provider failure with its class, whether a retry may help, and the server's wait hint. */
export class ProviderError extends HacError {
  override readonly name = 'ProviderError';
  constructor(
    override readonly code: ProviderErrorCode,
    message: string,
    readonly details: {
      retryable: boolean;
      retryAfterMs?: number;
      status?: number;
      inStream?: boolean;
      cause?: unknown;
    },
  ) {
    super(code, message, { cause: details.cause });
  }

  get retryable(): boolean {
    return this.details.retryable;
  }
}
