import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
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

type SdkApiError = APIError<number | undefined, Headers | undefined>;

/** Any failure of an Anthropic SDK call as a normalised ProviderError (R-PROV-3, R-PROV-7). */
export function mapAnthropicError(
  error: unknown,
  ctx: ErrorContext,
  nowMs: number = Date.now(),
): ProviderError {
  const ours = findProviderError(error);
  if (ours) return ours;
  const { model } = ctx;
  if (error instanceof APIUserAbortError) return cancelledError();
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderError(
      'timeout',
      `No response from ${model.label}: the connection to ${model.baseUrl} timed out.`,
      {
        retryable: true,
        cause: error,
      },
    );
  if (error instanceof APIConnectionError) {
    const problem = connectionProblem(error.cause ?? error);
    return new ProviderError('unavailable', `Cannot reach ${model.baseUrl} (${problem.text}).`, {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIError) return fromApiError(error as SdkApiError, ctx, nowMs);
  if (error instanceof SyntaxError)
    return malformedError(ctx, `an event that is not JSON (${error.message})`, { cause: error });
  if (error instanceof TypeError && /terminated|other side closed|socket/i.test(error.message))
    return new ProviderError('unavailable', `The connection to ${model.baseUrl} was interrupted.`, {
      retryable: true,
      inStream: true,
      cause: error,
    });
  const text = error instanceof Error ? error.message : String(error);
  return new ProviderError('unavailable', `Anthropic request failed: ${cleanServerMessage(text)}`, {
    retryable: false,
    cause: error,
  });
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
  const { model } = ctx;
  const status = error.status;
  const { type, message } = errorBody(error);
  const serverMessage = cleanServerMessage(message || 'no details');
  const details = { status, cause: error };
  if (status === undefined) {
    // An `error` event inside the 200 stream (R-PROV-7): overloaded or an API error mid-answer.
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
  if (status === 401 || status === 403) return authError(ctx, details);
  if (status === 404) return modelNotFoundError(ctx, details);
  if (status === 429)
    return new ProviderError(
      'rate-limit',
      `Rate limit reached for ${model.id} (HTTP 429): ${serverMessage}`,
      {
        retryable: true,
        retryAfterMs: parseRetryAfter(error.headers, nowMs),
        ...details,
      },
    );
  if ((status === 400 || status === 413) && looksLikeContextOverflow(message))
    return contextOverflowError(ctx, serverMessage, details);
  if (status === 529 || type === 'overloaded_error')
    return new ProviderError('unavailable', `Anthropic is overloaded (HTTP ${status}): ${serverMessage}`, {
      retryable: true,
      ...details,
    });
  if (status >= 500)
    return new ProviderError('unavailable', `Anthropic is unavailable (HTTP ${status}): ${serverMessage}`, {
      retryable: true,
      ...details,
    });
  return new ProviderError(
    'bad-request',
    `Anthropic rejected the request (HTTP ${status}): ${serverMessage}`,
    {
      retryable: false,
      ...details,
    },
  );
}
