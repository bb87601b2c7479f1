import { ProviderError } from '../errors/provider-error.js';
import { DEFAULT_BASE_URL, type ModelConfig } from '../config/load-config.js';

/** What error messages need to know about the call. */
export interface ErrorContext {
  model: ModelConfig;
  configFile: string;
}

/** `Authentication failed for <model>: check apiKey in <config.json>`. */
export function authError(
  ctx: ErrorContext,
  details: { status?: number; cause?: unknown } = {},
): ProviderError {
  return new ProviderError(
    'auth',
    `Authentication failed for ${ctx.model.label}: check apiKey in ${ctx.configFile}`,
    { retryable: false, ...details },
  );
}

/** `Model <m> was not found on <provider>. Choose another with /set-model` (+ the pull command for Ollama). */
export function modelNotFoundError(
  ctx: ErrorContext,
  details: { status?: number; cause?: unknown } = {},
): ProviderError {
  const { id, provider } = ctx.model;
  const pull = provider === 'ollama' ? ` or run: ollama pull ${id}` : '';
  return new ProviderError(
    'model-not-found',
    `Model ${id} was not found on ${provider}. Choose another with /set-model${pull}`,
    { retryable: false, ...details },
  );
}

/** The request is over the model's context window; never retried here (the engine trims the context and retries). */
export function contextOverflowError(
  ctx: ErrorContext,
  serverMessage: string,
  details: { status?: number; inStream?: boolean; cause?: unknown } = {},
): ProviderError {
  return new ProviderError(
    'context-overflow',
    `The conversation is too long for ${ctx.model.id}: ${serverMessage}`,
    {
      retryable: false,
      ...details,
    },
  );
}

/** What a vendor's error answer said, for the classes every vendor shares (httpStatusError). */
export interface HttpErrorAnswer {
  status: number;
  /** The server's own words, cleaned for one line. */
  serverMessage: string;
  /** The vendor's own sign that the request was over the context window. */
  overflow: boolean;
  /** When a rate limit may be tried again (Retry-After); a limit that will not lift (a spent quota) says false. */
  retryAfterMs?: number;
  rateLimitRetryable?: boolean;
  cause?: unknown;
}

/**
 * The classes of an HTTP error answer that every vendor shares, after the vendor's own special cases (its 404s,
 * Anthropic's "overloaded"): a refused key, a rate limit, a context overflow, trouble on the server (retried),
 * and a request the server refused (not retried). `vendor` names the service in the message.
 */
export function httpStatusError(
  ctx: ErrorContext,
  vendorName: string,
  answer: HttpErrorAnswer,
): ProviderError {
  const vendor = answeredBy(ctx, vendorName);
  const { status, serverMessage, cause } = answer;
  const details = { status, ...(cause === undefined ? {} : { cause }) };
  if (status === 401 || status === 403) return authError(ctx, details);
  if (status === 429)
    return new ProviderError(
      'rate-limit',
      `Rate limit reached for ${ctx.model.id} (HTTP 429): ${serverMessage}`,
      {
        retryable: answer.rateLimitRetryable ?? true,
        retryAfterMs: answer.retryAfterMs,
        ...details,
      },
    );
  if (answer.overflow) return contextOverflowError(ctx, serverMessage, details);
  if (status >= 500)
    return new ProviderError('unavailable', `${vendor} is unavailable (HTTP ${status}): ${serverMessage}`, {
      retryable: true,
      ...details,
    });
  return new ProviderError(
    'bad-request',
    `${vendor} rejected the request (HTTP ${status}): ${serverMessage}`,
    {
      retryable: false,
      ...details,
    },
  );
}

/**
 * Who answered: the vendor for its own API; any other server (LM Studio, vLLM, a company proxy, Ollama on another
 * machine) by its address, so the user looks at the right machine.
 */
function answeredBy(ctx: ErrorContext, vendor: string): string {
  const { baseUrl, provider } = ctx.model;
  if (baseUrl === DEFAULT_BASE_URL[provider]) return vendor;
  return provider === 'ollama' ? `The Ollama server at ${baseUrl}` : `The server at ${baseUrl}`;
}

/** The user (or the host) aborted the call. */
export function cancelledError(): ProviderError {
  return new ProviderError('cancelled', 'Request cancelled.', { retryable: false });
}

/** The server answered with something that is not its protocol (bad line, HTML, truncated stream…). */
export function malformedError(
  ctx: ErrorContext,
  what: string,
  details: { retryable?: boolean; cause?: unknown } = {},
): ProviderError {
  return new ProviderError('unavailable', `${providerTitle(ctx)} sent a malformed response: ${what}`, {
    retryable: details.retryable ?? false,
    inStream: true,
    cause: details.cause,
  });
}

/** The stream ended cleanly but before the provider said it was complete. */
export function truncatedError(ctx: ErrorContext, missing: string): ProviderError {
  return new ProviderError(
    'unavailable',
    `The response from ${providerTitle(ctx)} ended before it was complete (${missing}).`,
    { retryable: true, inStream: true },
  );
}

/** A 200 that is a web page: almost always a baseUrl pointing at a web UI instead of the API. */
export function htmlPageError(ctx: ErrorContext): ProviderError {
  const hint = ctx.model.provider === 'openai' ? ' (OpenAI-compatible APIs usually end in /v1)' : '';
  return new ProviderError(
    'bad-request',
    `${ctx.model.baseUrl} answered with a web page instead of the ${providerTitle(ctx)} API: check baseUrl in ${ctx.configFile}${hint}`,
    { retryable: false },
  );
}

/** A 200 with one JSON body where an event stream was asked for: an error object, or a server that cannot stream. */
export function notStreamedError(ctx: ErrorContext, body: string): ProviderError {
  let message: unknown;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
    message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
  } catch {
    // not JSON after all: fall through to the generic message
  }
  if (typeof message === 'string') {
    const text = cleanServerMessage(message);
    if (looksLikeContextOverflow(text)) {
      return contextOverflowError(ctx, text);
    }
    return new ProviderError('bad-request', `${providerTitle(ctx)} rejected the request: ${text}`, {
      retryable: false,
    });
  }
  return new ProviderError(
    'bad-request',
    `${ctx.model.baseUrl} answered without streaming (one JSON body instead of an event stream); the server must support "stream": true.`,
    { retryable: false },
  );
}

/** A line longer than any real answer line: refuse it instead of buffering without bound. */
export function lineTooLongError(ctx: ErrorContext, maxChars: number): ProviderError {
  return malformedError(ctx, `a line longer than ${maxChars} characters`);
}

/** `OpenAI`, `Ollama` or `Anthropic`, for messages. */
export function providerTitle(ctx: ErrorContext): string {
  return { openai: 'OpenAI', ollama: 'Ollama', anthropic: 'Anthropic' }[ctx.model.provider];
}

const CONTEXT_PATTERNS =
  /context[_ ]length|context window|maximum context|too many tokens|exceeds? (the )?(maximum )?(context|token)|input (length|is too long)|prompt is too long|reduce the length/i;

/** Whether a server message says the request is over the model's context window. */
export function looksLikeContextOverflow(message: string): boolean {
  return CONTEXT_PATTERNS.test(message);
}

/** The server's message made fit for one line: whitespace collapsed, HTML pages summarised, cut at 300 characters. */
export function cleanServerMessage(message: string): string {
  const trimmed = message.trim();
  if (/^<(!doctype|html)/i.test(trimmed)) {
    const title = /<title>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
    return title ? `an HTML page (${title})` : 'an HTML page';
  }
  const oneLine = trimmed.replace(/\s+/g, ' ');
  return oneLine.length > 300 ? `${oneLine.slice(0, 300)}…` : oneLine;
}

/** Connection failures by their system error code, for `Cannot reach …` messages. */
export function connectionProblem(error: unknown): { code: string | undefined; text: string } {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) {
      const text =
        code === 'ECONNREFUSED'
          ? 'connection refused'
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? 'host not found'
            : code === 'ECONNRESET'
              ? 'connection reset'
              : code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT'
                ? 'connection timed out'
                : code;
      return { code, text };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return { code: undefined, text: error instanceof Error ? error.message : String(error) };
}

/** The first ProviderError in an error's cause chain (our fetch wrappers throw them through the SDKs). */
export function findProviderError(error: unknown): ProviderError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    if (current instanceof ProviderError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
