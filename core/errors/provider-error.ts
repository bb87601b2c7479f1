import type { ProviderErrorCode } from '../types/engine-event.js';
import { HacError } from './hac-error.js';

export type { ProviderErrorCode };

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
