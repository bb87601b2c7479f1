import { htmlPageError, type ErrorContext } from '../provider-errors.js';
import { withGuardedBody } from '../guard-body.js';
import { mapOllamaHttpError, unreachableError } from './map-ollama-error.js';
import { httpFetch } from '../http-fetch.js';

/** Error bodies are short; a proxy's page may not be. */
const MAX_ERROR_BODY_CHARS = 64 * 1024;

/**
 * The `fetch` we give the Ollama SDK. It adds our signal (the SDK has no per-call signal and its own abort cannot
 * cancel a request still waiting for headers), maps HTTP errors and refused connections to ProviderErrors itself
 * (the SDK would console.log on a non-JSON error body), refuses web pages, and guards NDJSON lines (the SDK would
 * console.warn and skip a bad line), counting the lines it passes on in `lines`.
 */
export function ollamaFetch(
  ctx: ErrorContext,
  signal: () => AbortSignal | undefined,
  lines?: { passed: number },
): typeof fetch {
  return async (input, init) => {
    const ours = signal();
    const signals = [init?.signal, ours].filter((s): s is AbortSignal => s instanceof AbortSignal);
    let response: Response;
    try {
      response = await httpFetch(input, {
        ...init,
        signal: signals.length ? AbortSignal.any(signals) : undefined,
      });
    } catch (error) {
      if (signals.some((s) => s.aborted)) throw error;
      throw unreachableError(ctx, error);
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw mapOllamaHttpError(ctx, response.status, text.slice(0, MAX_ERROR_BODY_CHARS), response.headers);
    }
    const type = response.headers.get('content-type') ?? '';
    if (/text\/html/i.test(type)) {
      await response.body?.cancel().catch(() => undefined);
      throw htmlPageError(ctx);
    }
    // A chat answer is NDJSON whatever a proxy labels it; a plain JSON answer (/api/tags) is left to the SDK.
    const chat = new URL(input instanceof Request ? input.url : String(input)).pathname.endsWith('/api/chat');
    return !chat && /application\/json/i.test(type)
      ? response
      : withGuardedBody(response, { context: ctx, validateJsonLines: true, lines });
  };
}
