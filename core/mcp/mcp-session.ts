import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type ElicitRequest,
  type ElicitResult,
  type VersionNegotiationOptions,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import type { Logger } from '../logging/logger.js';
import type { SecretRegistry } from '../logging/secrets.js';
import { UI_EXTENSION, VIEW_MIME_TYPE } from './app-views.js';
import type { McpServerConfig } from './mcp-config.js';
import { substituteMap, substituteVars } from './mcp-env.js';
import type { McpAuthStore } from './oauth/auth-store.js';
import { HacOAuthProvider } from './oauth/oauth-provider.js';
import { watchedFetch } from './oauth/watched-fetch.js';
import { ProcessTreeTransport } from './process-tree-transport.js';
import type { StderrTail } from './stderr-tail.js';
import { settlesWithin, withTimeout } from './timing.js';
import { describeError, isSessionGone } from './mcp-errors.js';

/** One open connection to a server: the SDK client, its transport, and whether hac is closing it. */
export interface Session {
  client: Client;
  transport: Transport;
  /** Settles when the transport has closed: for stdio, when the child has exited. */
  exited: Promise<void>;
  closing: boolean;
}

export interface TransportOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  secrets?: SecretRegistry;
  /** Where a stdio server's stderr lines are kept for `/mcp`. */
  stderr: StderrTail;
  /** The OAuth hooks of a remote server that has no Authorization header of its own. */
  oauth(): Promise<OAuthClientProvider>;
  /** Accept authorization metadata naming another issuer on the server's own origin (2025-03-26 servers). */
  lenientIssuer?: boolean;
}

/** What a server may start: a list changed, or a question for the user (elicitation). */
export interface ClientHooks {
  listChanged(lists: 'tools' | 'features'): void;
  elicit(params: ElicitRequest['params'], id: string | number, signal: AbortSignal): Promise<ElicitResult>;
}

/** The SDK client for one session, declaring what hac does when a server speaks first. */
export function createClient(
  clientInfo: { name: string; version: string },
  versionNegotiation: VersionNegotiationOptions,
  hooks: ClientHooks,
  views = false,
): Client {
  const changed = (lists: 'tools' | 'features') => ({
    autoRefresh: false,
    debounceMs: 0,
    onChanged: () => hooks.listChanged(lists),
  });
  const client = new Client(clientInfo, {
    // Servers may ask the user for input during a call: a form, or a page to open (a sign-in, a payment).
    // With views, a server may attach one to a tool (MCP Apps); without, it sends its tools' text alone.
    capabilities: {
      elicitation: { form: {}, url: {} },
      ...(views ? { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } } : {}),
    },
    versionNegotiation,
    // Stateless servers announce changes only to a subscription, which the SDK opens for a listener here.
    listChanged: { tools: changed('tools'), prompts: changed('features'), resources: changed('features') },
  });
  client.setRequestHandler('elicitation/create', (request, ctx) =>
    hooks.elicit(request.params, ctx.mcpReq.id, ctx.mcpReq.signal),
  );
  return client;
}

/**
 * The session of a client and its transport, which tells `lost` when it ended without hac closing it: the
 * process exited, the connection closed, or a remote server forgot the session.
 */
export function watchSession(
  client: Client,
  transport: Transport,
  config: McpServerConfig,
  logger: Logger,
  lost: (reason: string) => void,
): Session {
  let markExited!: () => void;
  const session: Session = {
    client,
    transport,
    exited: new Promise((resolve) => (markExited = resolve)),
    closing: false,
  };
  client.onclose = () => {
    markExited();
    if (!session.closing)
      lost(config.transport === 'stdio' ? 'the server process exited' : 'the connection closed');
  };
  client.onerror = (error) => {
    logger.debug(`MCP ${config.name} transport: ${describeError(error)}`);
    // Remote transports report a dead server only here: the SSE client would otherwise reconnect silently into
    // a new, uninitialised server session. Other errors (a stray stdout line) are not fatal.
    if (!session.closing && isSessionGone(error)) lost(describeError(error));
  };
  return session;
}

/**
 * The transport for a server: a child process tree (stdio) or SSE / streamable HTTP, with `${VAR}` values
 * filled in and registered as secrets (only their keys are logged).
 */
export async function createTransport(
  config: McpServerConfig,
  options: TransportOptions,
): Promise<Transport> {
  const { env, logger, secrets } = options;
  const where = `mcp-servers.json: server "${config.name}"`;
  const keys = Object.keys(config.env);
  if (config.transport === 'stdio') {
    const args = config.args.map((arg) => substituteVars(arg, env, `${where} args`));
    logger.debug(
      `MCP ${config.name}: starting ${config.command ?? ''} ${config.args.join(' ')}; env keys: ${keys.join(', ') || '(none)'}`,
    );
    const childEnv = substituteMap(config.env, env, `${where} env`);
    secrets?.add(Object.values(childEnv));
    const transport = new ProcessTreeTransport({
      command: config.command ?? '',
      args,
      env: childEnv,
      cwd: config.cwd,
    });
    transport.stderr.on('data', (chunk: Buffer) => {
      for (const line of options.stderr.push(chunk.toString('utf8')))
        logger.info(`MCP ${config.name} stderr: ${line}`);
    });
    return transport;
  }
  const headers = substituteMap(config.env, env, `${where} env`);
  const url = new URL(config.url ?? '');
  secrets?.add([...Object.values(headers), decodeURIComponent(url.password)]);
  logger.debug(
    `MCP ${config.name}: ${config.url ?? ''} over ${config.transport}; header keys: ${keys.join(', ') || '(none)'}`,
  );
  const requestInit = { headers };
  // A server given an Authorization header signs in that way; any other may ask for OAuth.
  const hasAuthHeader = Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');
  const authProvider = hasAuthHeader ? undefined : await options.oauth();
  const remote = {
    requestInit,
    authProvider,
    skipIssuerMetadataValidation: options.lenientIssuer,
    ...(authProvider instanceof HacOAuthProvider && { fetch: watchedFetch(authProvider) }),
  };
  return config.transport === 'sse'
    ? new SSEClientTransport(url, remote)
    : new StreamableHTTPClientTransport(url, remote);
}

/**
 * Ends a session and leaves nothing running: a remote session is terminated on the server; a stdio server's
 * stdin is closed first, the polite way, then SIGTERM, then SIGKILL, each to the whole process tree.
 */
export async function closeSession(
  session: Session,
  name: string,
  options: { killAfterMs: number; logger: Logger },
): Promise<void> {
  session.closing = true;
  const { client, transport } = session;
  const { killAfterMs } = options;
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
    // close() alone leaves the server's session open (sdk-facts).
    await withTimeout(transport.terminateSession(), killAfterMs, 'terminate timed out').catch(
      () => undefined,
    );
  }
  if (!(transport instanceof ProcessTreeTransport)) {
    await client.close().catch(() => undefined);
    return;
  }
  const pid = transport.pid;
  await client.close().catch(() => undefined);
  if (pid === undefined) return;
  const goneWithin = async (ms: number) => {
    const deadline = Date.now() + ms;
    if (!(await settlesWithin(session.exited, ms))) return false;
    // The wrapper is gone; what it started may not be.
    while (transport.treeAlive(pid)) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return true;
  };
  // Most servers exit as soon as their stdin closes; one that lingers (timers, a slow shutdown) must not hold up
  // hac's own exit: it is asked to go with SIGTERM after a short grace.
  if (await goneWithin(Math.min(EXIT_GRACE_MS, killAfterMs / 2))) return;
  transport.signal(pid, 'SIGTERM');
  if (await goneWithin(killAfterMs / 2)) return;
  options.logger.warn(`MCP server "${name}" (pid ${pid}) did not exit; killing it.`);
  transport.signal(pid, 'SIGKILL');
  await goneWithin(killAfterMs);
}

/**
 * How long a stdio server may take to exit by itself after its stdin closed, before it gets SIGTERM: a Node server
 * that exits on its stdin's end is gone 10-21 ms after it on a busy two-core machine; one with background work
 * (server-everything's timers) never is, and every `hac -p` would wait for it.
 */
const EXIT_GRACE_MS = 50;

/** Timing and environment a connection needs; the pool fills in the defaults. */
export interface McpConnectionOptions {
  logger: Logger;
  /** hac's environment, the source of `${VAR}` values (never passed whole to a child). */
  env: NodeJS.ProcessEnv;
  connectTimeoutMs: number;
  /**
   * A stdio child still running this long after its stdin closed gets SIGTERM (or at half of `killAfterMs`, if that
   * is sooner), and SIGKILL once `killAfterMs` has passed.
   */
  killAfterMs: number;
  clientInfo: { name: string; version: string };
  onChange: () => void;
  secrets?: SecretRegistry;
  /** Where sign-ins of remote servers are kept. */
  authStore: McpAuthStore;
  /**
   * Signs in without asking whenever a server wants it, opening the link with this (a test client playing the
   * browser); hac itself signs in only through `signIn()`.
   */
  autoSignIn?: (server: string, url: URL) => void;
  /** Servers are told the host shows tools' views (MCP Apps). */
  views?: boolean;
}
