import { ProviderError } from '../errors/provider-error.js';
import {
  cancelledError,
  cleanServerMessage,
  connectionProblem,
  findProviderError,
  malformedError,
  type ErrorContext,
} from './provider-errors.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes of a Stainless-generated SDK (openai, @anthropic-ai/sdk): the same four in each package. */
export interface SdkErrorClasses<ApiError extends Error> {
  APIUserAbortError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIError: abstract new (...args: never[]) => ApiError;
}

/**
 * Any failure of an OpenAI or Anthropic SDK call as a ProviderError: ours passed through, a cancel, a timeout or
 * an unreachable server (retried), an error answer (`fromApiError`, the vendor's own classes), a broken event,
 * a connection cut mid-answer (retried), anything else as it came.
 */
export function mapSdkError<ApiError extends Error>(
  error: unknown,
  ctx: ErrorContext,
  vendor: string,
  classes: SdkErrorClasses<ApiError>,
  fromApiError: (error: ApiError) => ProviderError,
): ProviderError {
  const ours = findProviderError(error);
  if (ours) return ours;
  const { model } = ctx;
  if (error instanceof classes.APIUserAbortError) return cancelledError();
  if (error instanceof classes.APIConnectionTimeoutError)
    return new ProviderError(
      'timeout',
      `No response from ${model.label}: the connection to ${model.baseUrl} timed out.`,
      { retryable: true, cause: error },
    );
  if (error instanceof classes.APIConnectionError) {
    const problem = connectionProblem(error.cause ?? error);
    return new ProviderError('unavailable', `Cannot reach ${model.baseUrl} (${problem.text}).`, {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof classes.APIError) return fromApiError(error);
  if (error instanceof SyntaxError)
    return malformedError(ctx, `an event that is not JSON (${error.message})`, { cause: error });
  // The raw error of the HTTP layer when the socket is cut mid-body.
  if (error instanceof TypeError && /terminated|other side closed|socket/i.test(error.message))
    return new ProviderError('unavailable', `The connection to ${model.baseUrl} was interrupted.`, {
      retryable: true,
      inStream: true,
      cause: error,
    });
  const text = error instanceof Error ? error.message : String(error);
  return new ProviderError('unavailable', `${vendor} request failed: ${cleanServerMessage(text)}`, {
    retryable: false,
    cause: error,
  });
}
