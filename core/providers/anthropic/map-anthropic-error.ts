import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { ProviderError } from '../../errors/provider-error.js';
import { mapSdkError } from '../map-sdk-error.js';
import {
  cleanServerMessage,
  httpStatusError,
  looksLikeContextOverflow,
  modelNotFoundError,
  type ErrorContext,
} from '../provider-errors.js';
import { parseRetryAfter } from '../retry-after.js';

type SdkApiError = APIError<number | undefined, Headers | undefined>;

/** Any failure of an Anthropic SDK call as a normalised ProviderError. */
export function mapAnthropicError(
  error: unknown,
  ctx: ErrorContext,
  nowMs: number = Date.now(),
): ProviderError {
  return mapSdkError(
    error,
    ctx,
    'Anthropic',
    { APIUserAbortError, APIConnectionTimeoutError, APIConnectionError, APIError },
    (e) => fromApiError(e as SdkApiError, ctx, nowMs),
  );
}

/** `{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`, also mid-stream. */
function errorBody(error: SdkApiError): { type: string; message: string } {
  const body: unknown = error.error;
  const inner = (body as { error?: { type?: unknown; message?: unknown } } | undefined)?.error;
  const type = typeof inner?.type === 'string' ? inner.type : '';
  const message = typeof inner?.message === 'string' ? inner.message : error.message.replace(/^\d{3} /, '');
  return { type, message };
}

function fromApiError(error: SdkApiError, ctx: ErrorContext, nowMs: number): ProviderError {
  const status = error.status;
  const { type, message } = errorBody(error);
  const serverMessage = cleanServerMessage(message || 'no details');
  const details = { status, cause: error };
  if (status === undefined) {
    // An `error` event inside the 200 stream: overloaded or an API error mid-answer.
    if (type === 'overloaded_error')
      return new ProviderError('unavailable', `Anthropic is overloaded: ${serverMessage}`, {
        retryable: false,
        inStream: true,
        cause: error,
      });
    return new ProviderError(
      'unavailable',
      `Anthropic reported an error during the answer: ${serverMessage}`,
      {
        retryable: false,
        inStream: true,
        cause: error,
      },
    );
  }
  if (status === 404) return modelNotFoundError(ctx, details);
  const overflow = (status === 400 || status === 413) && looksLikeContextOverflow(message);
  if ((status === 529 || type === 'overloaded_error') && status !== 429 && !overflow)
    return new ProviderError('unavailable', `Anthropic is overloaded (HTTP ${status}): ${serverMessage}`, {
      retryable: true,
      ...details,
    });
  return httpStatusError(ctx, 'Anthropic', {
    status,
    serverMessage,
    overflow,
    retryAfterMs: status === 429 ? parseRetryAfter(error.headers, nowMs) : undefined,
    cause: error,
  });
}
