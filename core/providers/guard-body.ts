import type { ProviderError } from '../errors/provider-error.js';
import { lineTooLongError, malformedError, type ErrorContext } from './provider-errors.js';

/** No real answer line comes near this; the SDKs would buffer a longer one without bound (and re-scan it per chunk). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

export interface GuardOptions {
  context: ErrorContext;
  maxLineChars?: number;
  /** NDJSON: every line must be JSON. The Ollama SDK skips a bad line with a console.warn; we fail with a clear error instead. */
  validateJsonLines?: boolean;
  /**
   * NDJSON: counts the complete lines passed on so far. The SDK makes one item (or one warning) of each, so a
   * reader that has taken fewer items knows the next one is already here, without waiting for the network.
   */
  lines?: { passed: number };
}

/** What an inspector makes of one chunk: the bytes to pass on, and the problem found after them, if any. */
interface Inspection {
  pass: Uint8Array;
  problem?: ProviderError;
  /** The complete lines in `pass` (counted by the NDJSON inspector only). */
  lines?: number;
}

interface Inspector {
  chunk(bytes: Uint8Array): Inspection;
  end(): ProviderError | undefined;
}

/**
 * A response body passed on while it is checked: a line over `maxLineChars`, or for NDJSON a line that is
 * not JSON, fails the stream with a ProviderError. Everything before the bad line is delivered first (the error
 * comes on the next read), so the partial answer is not lost. The SDK still does all the parsing.
 */
export function guardBody(
  body: ReadableStream<Uint8Array>,
  options: GuardOptions,
): ReadableStream<Uint8Array> {
  const max = options.maxLineChars ?? MAX_LINE_CHARS;
  const inspector = options.validateJsonLines
    ? jsonLineInspector(max, options.context)
    : lineLengthInspector(max, options.context);
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
          const { pass, problem, lines = 0 } = inspector.chunk(value);
          if (problem && !pass.length) return fail(controller, problem);
          failure = problem;
          if (options.lines) options.lines.passed += lines;
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

const LF = 0x0a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x09 || byte === 0x0d;

/**
 * NDJSON lines must be JSON objects. Checked on the bytes, without decoding or parsing (the SDK parses next, and a
 * second JSON.parse per line doubled the cost of a stream): each non-blank line must start with `{` and end with `}`.
 * That catches what real failures look like (cut lines, HTML, plain text, SSE); a line that passes and still is
 * not JSON is left to the SDK. ASCII bytes never occur inside multi-byte UTF-8, so byte checks are exact.
 */
function jsonLineInspector(max: number, context: ErrorContext): Inspector {
  // State of the line that continues from earlier chunks.
  let length = 0;
  let first: number | undefined; // first non-space byte of the line
  let last: number | undefined; // last non-space byte seen so far
  const bad = (bytes: Uint8Array, lineStart: number, end: number): ProviderError => {
    const shown = new TextDecoder().decode(
      bytes.subarray(Math.max(0, lineStart), Math.min(end, Math.max(0, lineStart) + 120)),
    );
    return malformedError(context, `a line that is not JSON: ${shown}${end - lineStart > 120 ? '…' : ''}`);
  };
  const lineOk = () => first === undefined || (first === OPEN_BRACE && last === CLOSE_BRACE);
  const scan = (bytes: Uint8Array, from: number, to: number) => {
    if (first === undefined) {
      let i = from;
      while (i < to && isSpace(bytes[i])) i++;
      if (i < to) first = bytes[i];
    }
    let j = to - 1;
    while (j >= from && isSpace(bytes[j])) j--;
    if (j >= from) last = bytes[j];
  };
  return {
    chunk(bytes) {
      let start = 0;
      let lines = 0;
      for (let nl = bytes.indexOf(LF); nl !== -1; nl = bytes.indexOf(LF, start)) {
        scan(bytes, start, nl);
        const lineStart = start - length;
        if (!lineOk())
          return {
            pass: bytes.subarray(0, Math.max(0, lineStart)),
            problem: bad(bytes, lineStart, nl),
            lines,
          };
        length = 0;
        first = last = undefined;
        start = nl + 1;
        lines++;
      }
      scan(bytes, start, bytes.length);
      length += bytes.length - start;
      if (length > max)
        return { pass: bytes.subarray(0, start), problem: lineTooLongError(context, max), lines };
      return { pass: bytes, lines };
    },
    end: () => (lineOk() ? undefined : malformedError(context, 'a last line that is not JSON')),
  };
}

/** A copy of `response` whose body goes through `guardBody`. */
export function withGuardedBody(response: Response, options: GuardOptions): Response {
  if (!response.body) return response;
  return new Response(guardBody(response.body, options), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
