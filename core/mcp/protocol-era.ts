import {
  UnsupportedProtocolVersionError,
  type VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import type { McpTransportKind } from './mcp-config.js';

/** The stateless revisions the SDK speaks (it exports only the handshake list). */
const STATELESS_REVISIONS = ['2026-07-28'];

/**
 * How hac opens a session with a server, so that it speaks the stateless revision (2026-07-28) to servers that
 * have it and the handshake revisions to the rest:
 * - streamable HTTP: ask `server/discover` first, fall back to `initialize` (an HTTP request costs little);
 * - stdio: `initialize` first, because some local servers exit on any request before it; a server that
 *   speaks only the stateless revision rejects it naming the revisions it has, and is started again pinned
 *   to one of them (see `statelessRevisionOffered`);
 * - SSE: a handshake-era transport, never probed.
 */
export function versionNegotiation(
  transport: McpTransportKind,
  pinned: string | undefined,
): VersionNegotiationOptions {
  if (pinned) return { mode: { pin: pinned } };
  return { mode: transport === 'http' ? 'auto' : 'legacy' };
}

/** The stateless revision a server named when it refused `initialize`, if it did. */
export function statelessRevisionOffered(error: unknown): string | undefined {
  if (!(error instanceof UnsupportedProtocolVersionError)) return undefined;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  if (!Array.isArray(supported)) return undefined;
  // Revisions are dates, so the newest sorts last.
  return supported
    .filter((v): v is string => typeof v === 'string' && STATELESS_REVISIONS.includes(v))
    .sort()
    .at(-1);
}
