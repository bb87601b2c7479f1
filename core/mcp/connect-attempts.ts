import { UnauthorizedError, type Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../logging/logger.js';
import type { McpServerConfig } from './mcp-config.js';
import { describeError, isSameOriginIssuerMismatch } from './mcp-errors.js';
import type { ServerSignIn } from './oauth/server-sign-in.js';
import { statelessRevisionOffered } from './protocol-era.js';

/** Browser sign-ins one connect may ask for: the first, and two for more access (step-up). */
const MAX_SIGN_INS_PER_CONNECT = 3;

/** How one connect to a server is tried. */
export interface ConnectAttempt {
  /** The stateless revision a stdio server asked for when it refused `initialize`. */
  pinned?: string;
  /** Browser sign-ins this connect has already been through. */
  signIns: number;
  /** Accept authorization metadata naming another issuer on the server's own origin. */
  lenientIssuer: boolean;
}

/**
 * Whether a refused connect is worth another try, and how the next one differs; throws `error` when it is not.
 * Tried again: a 2025-03-26 server naming a path of its own as the issuer, a server that speaks only the
 * stateless revision, and a server that wanted the browser sign-in this connect started.
 */
export async function nextAttempt(
  error: unknown,
  attempt: ConnectAttempt,
  server: { config: McpServerConfig; logger: Logger; signIns: ServerSignIn; transport: Transport },
  signal: AbortSignal,
): Promise<ConnectAttempt> {
  const { config, logger, signIns } = server;
  if (!attempt.lenientIssuer && isSameOriginIssuerMismatch(error, config.url)) {
    // Servers of the 2025-03-26 revision are their own authorization server, and some name a path of theirs as
    // the issuer; with everything on the server's own origin there is no other party to mix up.
    logger.warn(`MCP ${config.name}: ${describeError(error)}; accepted, as it is the server's own origin.`);
    return { ...attempt, lenientIssuer: true };
  }
  const stateless = attempt.pinned ? undefined : statelessRevisionOffered(error);
  if (stateless) {
    logger.debug(`MCP ${config.name}: refused initialize; starting it again for revision ${stateless}.`);
    return { ...attempt, pinned: stateless };
  }
  // Once the sign-in is done, connect again with the new tokens. A server that keeps asking for more access
  // (403 insufficient_scope) gets a few sign-ins, not a loop.
  if (!(error instanceof UnauthorizedError) || !signIns.underWay) throw error;
  if (attempt.signIns + 1 >= MAX_SIGN_INS_PER_CONNECT)
    throw new Error(`still refused after ${MAX_SIGN_INS_PER_CONNECT} sign-ins`, { cause: error });
  await signIns.finish(server.transport, signal);
  return { ...attempt, signIns: attempt.signIns + 1 };
}
