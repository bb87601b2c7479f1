import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ProviderError } from '../../errors/provider-error.js';
import {
  authError,
  cancelledError,
  cleanServerMessage,
  connectionProblem,
  contextOverflowError,
  findProviderError,
  looksLikeContextOverflow,
  malformedError,
  modelNotFoundError,
  type ErrorContext,
} from '../provider-errors.js';
import { parseRetryAfter } from '../retry-after.js';

/** Any failure of an OpenAI SDK call as a normalised ProviderError (R-PROV-3). */
export function mapOpenAIError(error: unknown, ctx: ErrorContext, nowMs: number = Date.now()): ProviderError {
  const ours = findProviderError(error);
  if (ours) return ours;
  const { model } = ctx;
  if (error instanceof APIUserAbortError) return cancelledError();
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError(
      'timeout',
      `No response from ${model.label}: the connection to ${model.baseUrl} timed out.`,
      { retryable: true, cause: error },
    );
  }
  if (error instanceof APIConnectionError) {
    const problem = connectionProblem(error.cause ?? error);
    return new ProviderError('unavailable', `Cannot reach ${model.baseUrl} (${problem.text}).`, {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIError)
    return fromApiError(error as APIError<number | undefined, Headers | undefined>, ctx, nowMs);
  if (error instanceof SyntaxError)
    return malformedError(ctx, `an event that is not JSON (${error.message})`, { cause: error });
  // undici's raw error when the socket is cut mid-body.
  if (error instanceof TypeError && /terminated|other side closed|socket/i.test(error.message)) {
    return new ProviderError('unavailable', `The connection to ${model.baseUrl} was interrupted.`, {
      retryable: true,
      inStream: true,
      cause: error,
    });
  }
  const text = error instanceof Error ? error.message : String(error);
  return new ProviderError('unavailable', `OpenAI request failed: ${cleanServerMessage(text)}`, {
    retryable: false,
    cause: error,
  });
}

function fromApiError(
  error: APIError<number | undefined, Headers | undefined>,
  ctx: ErrorContext,
  nowMs: number,
): ProviderError {
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

  // `data: {"error": …}` inside a 200 stream: reported by the server mid-answer, never retried (R-PROV-4).
  if (status === undefined) {
    if (code === 'context_length_exceeded' || looksLikeContextOverflow(raw))
      return contextOverflowError(ctx, serverMessage, { inStream: true, cause: error });
    return new ProviderError('unavailable', `OpenAI reported an error during the answer: ${serverMessage}`, {
      retryable: false,
      inStream: true,
      cause: error,
    });
  }
  if (status === 401 || status === 403) return authError(ctx, details);
  if (status === 404) {
    if (code === 'model_not_found' || /model/i.test(raw)) return modelNotFoundError(ctx, details);
    return new ProviderError(
      'bad-request',
      `${model.baseUrl}/chat/completions was not found (HTTP 404): check baseUrl in ${ctx.configFile}`,
      { retryable: false, ...details },
    );
  }
  if (status === 429) {
    // An exhausted quota does not come back after a wait.
    const retryable = code !== 'insufficient_quota';
    const retryAfterMs = parseRetryAfter(error.headers, nowMs);
    return new ProviderError(
      'rate-limit',
      `Rate limit reached for ${model.id} (HTTP 429): ${serverMessage}`,
      { retryable, retryAfterMs, ...details },
    );
  }
  if (
    code === 'context_length_exceeded' ||
    ((status === 400 || status === 413 || status === 422) && looksLikeContextOverflow(raw))
  ) {
    return contextOverflowError(ctx, serverMessage, details);
  }
  if (status >= 500)
    return new ProviderError('unavailable', `OpenAI is unavailable (HTTP ${status}): ${serverMessage}`, {
      retryable: true,
      ...details,
    });
  return new ProviderError('bad-request', `OpenAI rejected the request (HTTP ${status}): ${serverMessage}`, {
    retryable: false,
    ...details,
  });
}
