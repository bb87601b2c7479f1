import type { ProviderError } from '../errors/provider-error.js';
import { lineTooLongError, malformedError, type ErrorContext } from './provider-errors.js';

/** No real answer line comes near this; the SDKs would buffer a longer one without bound (and re-scan it per chunk). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

export interface GuardOptions {
  context: ErrorContext;
  maxLineChars?: number;
  /** NDJSON: every line must be JSON. The Ollama SDK skips a bad line with a console.warn; we fail with a clear error instead. */
  validateJsonLines?: boolean;
}

/**
 * Passes a response body through unchanged while checking it (R-REL-2): fails the stream with a ProviderError on a
 * line over `maxLineChars`, and, for NDJSON, on a line that is not JSON. The SDK still does all the parsing.
 */
export function guardBody(body: ReadableStream<Uint8Array>, options: GuardOptions): ReadableStream<Uint8Array> {
  const max = options.maxLineChars ?? MAX_LINE_CHARS;
  return body.pipeThrough(options.validateJsonLines ? jsonLineGuard(max, options.context) : lineLengthGuard(max, options.context));
}

function lineLengthGuard(max: number, context: ErrorContext): TransformStream<Uint8Array, Uint8Array> {
  let run = 0;
  return new TransformStream({
    transform(chunk, controller) {
      const lf = chunk.lastIndexOf(0x0a);
      const cr = chunk.lastIndexOf(0x0d);
      const last = Math.max(lf, cr);
      run = last === -1 ? run + chunk.length : chunk.length - last - 1;
      if (run > max) return controller.error(lineTooLongError(context, max));
      controller.enqueue(chunk);
    },
  });
}

function jsonLineGuard(max: number, context: ErrorContext): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let pending = '';
  const check = (line: string): ProviderError | undefined => {
    if (!line.trim()) return undefined;
    try {
      JSON.parse(line);
      return undefined;
    } catch {
      return malformedError(context, `a line that is not JSON: ${line.length > 120 ? `${line.slice(0, 120)}…` : line}`);
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      const text = decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        const problem = check(pending + text.slice(start, nl));
        if (problem) return controller.error(problem);
        pending = '';
        start = nl + 1;
      }
      pending += text.slice(start);
      if (pending.length > max) return controller.error(lineTooLongError(context, max));
      controller.enqueue(chunk);
    },
    flush(controller) {
      const problem = check(pending + decoder.decode());
      if (problem) controller.error(problem);
    },
  });
}

/** A copy of `response` whose body goes through `guardBody`. */
export function withGuardedBody(response: Response, options: GuardOptions): Response {
  if (!response.body) return response;
  return new Response(guardBody(response.body, options), { status: response.status, statusText: response.statusText, headers: response.headers });
}
