import { ProviderError } from '../../errors/provider-error.js';
import {
  cleanServerMessage,
  connectionProblem,
  contextOverflowError,
  findProviderError,
  httpStatusError,
  looksLikeContextOverflow,
  malformedError,
  modelNotFoundError,
  truncatedError,
  type ErrorContext,
} from '../provider-errors.js';
import { parseRetryAfter } from '../retry-after.js';

/** `Cannot reach Ollama at <baseUrl>. Is "ollama serve" running?` */
export function unreachableError(ctx: ErrorContext, cause: unknown): ProviderError {
  const problem = connectionProblem(cause);
  const message =
    problem.code === 'ECONNREFUSED'
      ? `Cannot reach Ollama at ${ctx.model.baseUrl}. Is "ollama serve" running?`
      : `Cannot reach Ollama at ${ctx.model.baseUrl} (${problem.text}). Is "ollama serve" running?`;
  return new ProviderError('unavailable', message, { retryable: true, cause });
}

/** An HTTP error answer of Ollama (body `{"error": "..."}` or plain text) as a ProviderError. */
export function mapOllamaHttpError(
  ctx: ErrorContext,
  status: number,
  bodyText: string,
  headers: { get(name: string): string | null },
  nowMs: number = Date.now(),
): ProviderError {
  let raw = bodyText;
  try {
    const parsed = JSON.parse(bodyText) as { error?: unknown };
    if (typeof parsed.error === 'string') raw = parsed.error;
  } catch {
    // a plain-text body (a proxy, or an old server): use it as it is
  }
  const serverMessage = cleanServerMessage(raw || `HTTP ${status}`);
  const details = { status };
  if (status === 404) {
    if (/model|not found, try pulling/i.test(raw) && !/^404 page not found$/i.test(raw.trim()))
      return modelNotFoundError(ctx, details);
    return new ProviderError(
      'bad-request',
      `${ctx.model.baseUrl}/api/chat was not found (HTTP 404): check baseUrl in ${ctx.configFile}`,
      { retryable: false, ...details },
    );
  }
  return httpStatusError(ctx, 'Ollama', {
    status,
    serverMessage,
    overflow: looksLikeContextOverflow(raw),
    retryAfterMs: status === 429 ? parseRetryAfter(headers, nowMs) : undefined,
  });
}

/** Any failure while streaming from the Ollama SDK as a ProviderError (HTTP errors are mapped in our fetch already). */
export function mapOllamaError(error: unknown, ctx: ErrorContext): ProviderError {
  const ours = findProviderError(error);
  if (ours) return ours;
  const err = error as { name?: unknown; message?: unknown; status_code?: unknown };
  const message = typeof err?.message === 'string' ? err.message : String(error);
  // ResponseError is not exported by the SDK: recognise it by name.
  if (err?.name === 'ResponseError' && typeof err.status_code === 'number') {
    return mapOllamaHttpError(ctx, err.status_code, message, { get: () => null });
  }
  if (message === 'Did not receive done or success response in stream.')
    return truncatedError(ctx, 'no final "done": true');
  if (message === 'Missing body') return malformedError(ctx, 'an empty body', { cause: error });
  if (error instanceof TypeError) {
    if (/terminated|other side closed|socket/i.test(message)) {
      return new ProviderError(
        'unavailable',
        `The connection to Ollama at ${ctx.model.baseUrl} was interrupted.`,
        { retryable: true, inStream: true, cause: error },
      );
    }
    return unreachableError(ctx, error);
  }
  if (error instanceof SyntaxError)
    return malformedError(ctx, `a line that is not JSON (${message})`, { cause: error });
  // The SDK throws a plain Error with the text of an `{"error": …}` line inside the stream: never retried.
  if (looksLikeContextOverflow(message)) {
    return contextOverflowError(ctx, cleanServerMessage(message), { inStream: true, cause: error });
  }
  return new ProviderError(
    'unavailable',
    `Ollama reported an error during the answer: ${cleanServerMessage(message)}`,
    { retryable: false, inStream: true, cause: error },
  );
}
