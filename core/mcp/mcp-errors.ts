import { formatJsonPath } from '../config/read-json-file.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
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
  if (error instanceof McpError) return error.code === Number(ErrorCode.ConnectionClosed);
  if (error instanceof StreamableHTTPError) return error.code === 404 || error.code === 400;
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
  if (error instanceof StreamableHTTPError) return error.code === 404 || error.code === 400;
  if (error instanceof Error && error.message === 'Not connected') return true;
  const cause = error instanceof TypeError ? (error.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === 'ECONNREFUSED';
}

/** An error's message without the SDK's prefixes doubled up, for one-line reports. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** The SDK rejects a result that breaks the schema with zod's error, whose message is a JSON dump: say it in one line. */
export function zodIssues(error: unknown): string | undefined {
  const issues = (error as { name?: string; issues?: unknown } | undefined)?.issues;
  if (!(error as Error | undefined)?.name?.endsWith('ZodError') || !Array.isArray(issues)) return undefined; // $ZodError in zod 4
  return (issues as { path?: PropertyKey[]; message?: string }[])
    .slice(0, 3)
    .map((issue) => `${formatJsonPath(issue.path ?? []) || '(result)'}: ${issue.message ?? 'invalid'}`)
    .join('; ');
}
