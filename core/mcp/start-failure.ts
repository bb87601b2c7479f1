import type { McpServerConfig } from './mcp-config.js';
import { describeError } from './mcp-errors.js';
import { signInAdvice } from './oauth/sign-in-advice.js';

/** The error codes of the system that say what went wrong in the user's terms. */
const CODES = new Set([
  'ENOENT',
  'EACCES',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'ETIMEDOUT',
]);

/** Where the user fixes an entry, said after the field to check. */
const where = '(mcp-servers.json)';

/**
 * The system error under an error's causes (fetch failed → connect ECONNREFUSED), if any; some transports keep
 * only its words ("SSE error: TypeError: fetch failed: connect ECONNREFUSED …").
 */
function systemCause(error: unknown): { code?: string; message: string } | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 6; at = at.cause, depth++) {
    const code = (at as NodeJS.ErrnoException).code ?? /\b(E[A-Z_]{4,})\b/.exec(at.message)?.[1];
    if (code && CODES.has(code)) return { code, message: at.message };
  }
  // fetch refuses some addresses before connecting ("bad port"): what is under "fetch failed" says why.
  for (let at = error, depth = 0; at instanceof Error && depth < 6; at = at.cause, depth++) {
    if (at.message === 'fetch failed' && at.cause instanceof Error) return { message: at.cause.message };
  }
  return undefined;
}

/**
 * Why a server did not start, in the user's terms and once: which command or address, what happened, what to
 * check. Falls back to the SDK's words (their repeated prefixes taken off) for anything else.
 */
export function startFailure(config: McpServerConfig, error: unknown, stderr: readonly string[]): string {
  const advice = signInAdvice(config.name, error);
  if (advice) return advice;
  const cause = systemCause(error);
  if (config.transport === 'stdio') {
    const command = `"${config.command ?? ''}"`;
    if (cause?.code === 'ENOENT')
      return `the command ${command} was not found: is it installed and on PATH? Check "command" ${where}`;
    if (cause?.code === 'EACCES') return `the command ${command} may not be run (permission denied)`;
    if (/Connection closed/i.test(describeError(error))) {
      const last = stderr.at(-1);
      return `${command} ended before it answered${last ? `; its last words: ${last}` : ''} (/mcp shows more)`;
    }
  } else {
    const unreachable = reachProblem(config, cause);
    if (unreachable) return unreachable;
  }
  return describeError(error).replace(/^Version negotiation probe failed: /, '');
}

/** Why an address cannot be reached, from the system error under a failure, said with the address. */
function reachProblem(config: McpServerConfig, cause: { code?: string; message: string } | undefined) {
  const url = config.url ?? '';
  if (cause?.code === 'ECONNREFUSED')
    return `nothing answers at ${url} (connection refused): is the server running?`;
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN')
    return `the host of ${url} was not found: check "url" ${where}`;
  if (cause?.code === 'ETIMEDOUT') return `${url} did not answer (timed out): check "url" and your network`;
  if (cause?.code === 'ECONNRESET')
    return `${url} closed the connection: is it an MCP server over ${config.transport}?`;
  if (cause) return `cannot reach ${url} (${cause.message}): check "url" ${where}`;
  return undefined;
}

/**
 * Why a tool call failed when the server went away under it, in the user's terms: the process that ended (with
 * its last words) or the address that stopped answering, and that the next use starts it again. Anything else in
 * the SDK's words, its repeated prefixes taken off.
 */
export function callProblem(config: McpServerConfig, error: unknown, stderr: readonly string[]): string {
  const closed = closedUnder(error);
  if (config.transport === 'stdio') {
    if (!closed) return describeError(error);
    const last = stderr.at(-1);
    return `"${config.command ?? ''}" ended during the call${last ? `; its last words: ${last}` : ''}; it starts again on the next use`;
  }
  if (closed)
    return `${config.url ?? ''} closed the connection during the call; hac reconnects on the next use`;
  return reachProblem(config, systemCause(error)) ?? describeError(error);
}

/** The connection was cut under the call: the SDK's own words, or the HTTP layer's under "fetch failed". */
function closedUnder(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 6; at = at.cause, depth++)
    if (/Connection closed|other side closed|^terminated$|ECONNRESET|socket hang up/i.test(at.message))
      return true;
  return false;
}
