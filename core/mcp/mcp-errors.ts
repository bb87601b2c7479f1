import { formatJsonPath } from '../config/read-json-file.js';
import {
  IssuerMismatchError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { SignInRequired } from './oauth/oauth-provider.js';
import { HacError } from '../errors/hac-error.js';

/** Codes of MCP failures, for hosts and the engine. */
export type McpErrorCode =
  | 'mcp-unknown-server'
  | 'mcp-disabled'
  | 'mcp-not-connected'
  | 'mcp-connect-failed'
  | 'mcp-timeout'
  | 'mcp-call-failed'
  | 'cancelled';

/** A failed MCP operation: which server, what went wrong, as one line a user can read. */
export class McpPoolError extends HacError {
  override readonly name = 'McpPoolError';
  constructor(
    override readonly code: McpErrorCode,
    readonly server: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/**
 * True when an error means the session is gone (see sdk-facts: only stdio reports its own close;
 * remote transports show it through these errors). The session is then closed and reopened on next use.
 */
export function isSessionGone(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status === 404 || error.status === 400;
  if (error instanceof SdkError)
    return error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected;
  if (error instanceof SseError) return true;
  if (error instanceof TypeError) return /fetch failed|terminated/i.test(error.message);
  return (
    error instanceof Error &&
    /^Not connected$|SSE stream disconnected|Maximum reconnection attempts/.test(error.message)
  );
}

/**
 * True when the request surely never reached a live session, so sending it again after a reconnect
 * cannot run the tool twice: no transport, an unknown session id, or a refused connection.
 */
export function isUndelivered(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status === 404 || error.status === 400;
  if (error instanceof SdkError && error.code === SdkErrorCode.NotConnected) return true;
  const cause = error instanceof TypeError ? (error.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === 'ECONNREFUSED';
}

/** An error's message without the SDK's prefixes doubled up, for one-line reports. */
export function describeError(error: unknown): string {
  // The SDK names its own option after a redirect it did not follow; the user can only change the address.
  return describeRaw(error).replace(
    / \(redirectPolicy: '[\w-]+'\)/,
    ' (the server\'s "url" in mcp-servers.json)',
  );
}

function describeRaw(error: unknown): string {
  const schemaProblems = zodIssues(error);
  if (schemaProblems) return `an answer that does not follow its schema: ${schemaProblems}`;
  // What the server said about a refused request (a bad token, say) is in the body, not in the message.
  const body: unknown = error instanceof SdkHttpError ? error.data.text : undefined;
  const said = typeof body === 'string' ? body.replace(/\s+/g, ' ').trim() : undefined;
  if (said && error instanceof Error && !error.message.includes(said))
    return `${error.message}: ${said.length > 300 ? `${said.slice(0, 300)}…` : said}`;
  if (error instanceof Error) {
    // fetch's own cause often repeats its message ("fetch failed: fetch failed"): say it once.
    const under = error.cause instanceof Error ? error.cause.message : '';
    const cause = under && !error.message.includes(under) ? `: ${under}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/**
 * A result that breaks the schema comes as zod's error, or as the SDK's `INVALID_RESULT` whose message ends in
 * zod's issues as a JSON dump: say it in one line.
 */
export function zodIssues(error: unknown): string | undefined {
  const issues = schemaIssues(error);
  if (!issues) return undefined;
  return (issues as { path?: PropertyKey[]; message?: string }[])
    .slice(0, 3)
    .map((issue) => `${formatJsonPath(issue.path ?? []) || '(result)'}: ${issue.message ?? 'invalid'}`)
    .join('; ');
}

function schemaIssues(error: unknown): unknown[] | undefined {
  const { name, issues } = (error ?? {}) as { name?: string; issues?: unknown };
  if (name?.endsWith('ZodError') && Array.isArray(issues)) return issues as unknown[]; // $ZodError in zod 4
  if (!(error instanceof SdkError) || error.code !== SdkErrorCode.InvalidResult) return undefined;
  const dump = error.message.slice(error.message.indexOf('['));
  try {
    const parsed: unknown = JSON.parse(dump);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Authorization metadata whose issuer differs from where it came from, all on the MCP server's origin. */
export function isSameOriginIssuerMismatch(error: unknown, serverUrl: string | undefined): boolean {
  if (!(error instanceof IssuerMismatchError) || error.kind !== 'metadata' || !serverUrl) return false;
  const origin = (url: unknown) => (typeof url === 'string' && URL.canParse(url) ? new URL(url).origin : '');
  const server = new URL(serverUrl).origin;
  return origin(error.expected) === server && origin(error.received) === server;
}

/** The server wants a browser sign-in that is not under way. */
export function needsSignIn(error: unknown): boolean {
  return error instanceof SignInRequired || error instanceof UnauthorizedError;
}
