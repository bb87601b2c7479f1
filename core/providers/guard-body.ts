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

/** What an inspector makes of one chunk: the bytes to pass on, and the problem found after them, if any. */
interface Inspection {
  pass: Uint8Array;
  problem?: ProviderError;
}

interface Inspector {
  chunk(bytes: Uint8Array): Inspection;
  end(): ProviderError | undefined;
}

/**
 * A response body passed on while it is checked (R-REL-2): a line over `maxLineChars`, or for NDJSON a line that is
 * not JSON, fails the stream with a ProviderError. Everything before the bad line is delivered first (the error
 * comes on the next read), so the partial answer is not lost. The SDK still does all the parsing.
 */
export function guardBody(body: ReadableStream<Uint8Array>, options: GuardOptions): ReadableStream<Uint8Array> {
  const max = options.maxLineChars ?? MAX_LINE_CHARS;
  const inspector = options.validateJsonLines ? jsonLineInspector(max, options.context) : lineLengthInspector(max, options.context);
  const reader = body.getReader();
  let failure: ProviderError | undefined;
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, problem: ProviderError) => {
    controller.error(problem);
    reader.cancel(problem).catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (failure) return fail(controller, failure);
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            const problem = inspector.end();
            return problem ? controller.error(problem) : controller.close();
          }
          const { pass, problem } = inspector.chunk(value);
          if (problem && !pass.length) return fail(controller, problem);
          failure = problem;
          if (pass.length) return controller.enqueue(pass);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function lineLengthInspector(max: number, context: ErrorContext): Inspector {
  let run = 0;
  return {
    chunk(bytes) {
      const last = Math.max(bytes.lastIndexOf(0x0a), bytes.lastIndexOf(0x0d));
      run = last === -1 ? run + bytes.length : bytes.length - last - 1;
      if (run <= max) return { pass: bytes };
      return { pass: bytes.subarray(0, last + 1), problem: lineTooLongError(context, max) };
    },
    end: () => undefined,
  };
}

function jsonLineInspector(max: number, context: ErrorContext): Inspector {
  // Re-encoding the decoded text keeps output and checks aligned on character boundaries.
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
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
  return {
    chunk(bytes) {
      const text = decoder.decode(bytes, { stream: true });
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        const problem = check(pending + text.slice(start, nl));
        if (problem) return { pass: encoder.encode(text.slice(0, start)), problem };
        pending = '';
        start = nl + 1;
      }
      pending += text.slice(start);
      if (pending.length > max) return { pass: encoder.encode(text.slice(0, start)), problem: lineTooLongError(context, max) };
      return { pass: encoder.encode(text) };
    },
    end: () => check(pending + decoder.decode()),
  };
}

/** A copy of `response` whose body goes through `guardBody`. */
export function withGuardedBody(response: Response, options: GuardOptions): Response {
  if (!response.body) return response;
  return new Response(guardBody(response.body, options), { status: response.status, statusText: response.statusText, headers: response.headers });
}
