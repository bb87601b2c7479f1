import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ProviderError } from '../../errors/provider-error.js';
import { mapSdkError } from '../map-sdk-error.js';
import {
  cleanServerMessage,
  contextOverflowError,
  httpStatusError,
  looksLikeContextOverflow,
  modelNotFoundError,
  type ErrorContext,
} from '../provider-errors.js';
import { parseRetryAfter } from '../retry-after.js';

type SdkApiError = APIError<number | undefined, Headers | undefined>;

/** Any failure of an OpenAI SDK call as a normalised ProviderError. */
export function mapOpenAIError(error: unknown, ctx: ErrorContext, nowMs: number = Date.now()): ProviderError {
  return mapSdkError(
    error,
    ctx,
    'OpenAI',
    { APIUserAbortError, APIConnectionTimeoutError, APIConnectionError, APIError },
    (e) => fromApiError(e as SdkApiError, ctx, nowMs),
  );
}

function fromApiError(error: SdkApiError, ctx: ErrorContext, nowMs: number): ProviderError {
  const { model } = ctx;
  const status = error.status;
  const body = error.error as { message?: unknown; code?: unknown } | string | undefined;
  const raw =
    typeof body === 'string'
      ? body
      : typeof body?.message === 'string'
        ? body.message
        : error.message.replace(/^\d{3} /, '');
  const serverMessage = cleanServerMessage(raw || 'no details');
  const code = typeof error.code === 'string' ? error.code : '';
  const details = { status, cause: error };

  // `data: {"error": …}` inside a 200 stream: reported by the server mid-answer, never retried.
  if (status === undefined) {
    if (code === 'context_length_exceeded' || looksLikeContextOverflow(raw))
      return contextOverflowError(ctx, serverMessage, { inStream: true, cause: error });
    return new ProviderError('unavailable', `OpenAI reported an error during the answer: ${serverMessage}`, {
      retryable: false,
      inStream: true,
      cause: error,
    });
  }
  if (status === 404)
    return code === 'model_not_found' || /model/i.test(raw)
      ? modelNotFoundError(ctx, details)
      : new ProviderError(
          'bad-request',
          `${model.baseUrl}/chat/completions was not found (HTTP 404): check baseUrl in ${ctx.configFile}`,
          { retryable: false, ...details },
        );
  return httpStatusError(ctx, 'OpenAI', {
    status,
    serverMessage,
    overflow:
      code === 'context_length_exceeded' ||
      ((status === 400 || status === 413 || status === 422) && looksLikeContextOverflow(raw)),
    // An exhausted quota does not come back after a wait.
    rateLimitRetryable: code !== 'insufficient_quota',
    retryAfterMs: status === 429 ? parseRetryAfter(error.headers, nowMs) : undefined,
    cause: error,
  });
}
