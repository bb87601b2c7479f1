import { htmlPageError, type ErrorContext } from '../provider-errors.js';
import { guardBody } from '../guard-body.js';
import { plainFetch } from '../http-fetch.js';
import { PlainResponse } from '../plain-response.js';
import { mapOllamaHttpError, unreachableError } from './map-ollama-error.js';

/** Error bodies are short; a proxy's page may not be. */
const MAX_ERROR_BODY_CHARS = 64 * 1024;

/**
 * The `fetch` we give the Ollama SDK. It adds our signal (the SDK has no per-call signal and its own abort cannot
 * cancel a request still waiting for headers), maps HTTP errors and refused connections to ProviderErrors itself
 * (the SDK would console.log on a non-JSON error body), refuses web pages, and guards NDJSON lines (the SDK would
 * console.warn and skip a bad line), counting the lines it passes on in `lines`. Its answers are PlainResponses:
 * an Ollama answer never loads undici (plain-response.ts).
 */
export function ollamaFetch(
  ctx: ErrorContext,
  signal: () => AbortSignal | undefined,
  lines?: { passed: number },
): typeof fetch {
  return async (input, init) => {
    const ours = signal();
    const signals = [init?.signal, ours].filter((s): s is AbortSignal => s instanceof AbortSignal);
    let response: PlainResponse;
    try {
      response = await plainFetch(input, {
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
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
    const chat = new URL(url).pathname.endsWith('/api/chat');
    if ((!chat && /application\/json/i.test(type)) || !response.body) return response.asResponse();
    const guarded = guardBody(response.body, { context: ctx, validateJsonLines: true, lines });
    return new PlainResponse(guarded, response).asResponse();
  };
}
