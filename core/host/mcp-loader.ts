import { existsSync, readFileSync } from 'node:fs';
import type { McpServerView } from '../commands/command-types.js';
import type { HacPaths } from '../config/paths.js';
import type { Tool, ToolSource } from '../tools/tool.js';
import { enabledEntries, KnownTools } from '../mcp/known-tools.js';
import type { McpToolInfo } from '../mcp/list-tools.js';
import type { ConfigError } from '../errors/hac-error.js';
import type { Logger } from '../logging/logger.js';
import type { SecretRegistry } from '../logging/secrets.js';
import type { McpPool, McpPoolEvent } from '../mcp/index.js';

/** What createHac needs of the MCP pool, available before the pool (and the MCP SDK) is loaded. */
export interface McpHandle {
  source: ToolSource;
  /** Starts the enabled servers (once), in the background; with none enabled, the MCP SDK is not even loaded. */
  start(): void;
  /**
   * Loads the MCP SDK for the enabled servers without starting them (at once when none is enabled): a terminal
   * does it before its prompt, since it keeps the main thread busy for a while and keys must not wait behind it.
   */
  load(): Promise<void>;
  /** Returns the function that stops the listener. */
  subscribe(listener: (event: McpPoolEvent) => void): () => void;
  /** With `ifStarted`, no servers unless the pool is loaded: nothing to load the MCP SDK for. */
  view(ifStarted?: boolean): Promise<{
    servers: McpServerView[];
    error?: ConfigError;
    file: string;
  }>;
  setEnabled(name: string, on: boolean): Promise<void>;
  signIn(name: string): Promise<{ url: string | undefined; done: Promise<void> }>;
  pasteSignIn(name: string, text: string): Promise<void>;
  signOut(name: string): Promise<boolean>;
  /** The pool once it is loaded (prompts, resources, completions); undefined before, or with no servers. */
  pool(): McpPool | undefined;
  /** The pool once every server has connected or failed (started if it was not); undefined with no servers. */
  readyPool(): Promise<McpPool | undefined>;
  close(): Promise<void>;
}

/** The MCP pool, imported only when mcp-servers.json exists, so a plain chat never loads the MCP SDK. */
export function createMcpHandle(
  paths: HacPaths,
  logger: Logger,
  env: NodeJS.ProcessEnv,
  secrets: SecretRegistry,
  { connectTimeoutMs, views }: { connectTimeoutMs?: number; views?: boolean } = {},
): McpHandle {
  const none = () => new Error(`No MCP servers configured in ${paths.mcpServers}.`);
  if (!existsSync(paths.mcpServers)) {
    return {
      source: { isReady: () => true, ready: () => Promise.resolve(), tools: () => [] },
      start() {},
      load: () => Promise.resolve(),
      subscribe: () => () => {},
      view: () => Promise.resolve({ servers: [], file: paths.mcpServers }),
      setEnabled: () => Promise.reject(none()),
      signIn: () => Promise.reject(none()),
      pasteSignIn: () => Promise.reject(none()),
      signOut: () => Promise.reject(none()),
      pool: () => undefined,
      readyPool: () => Promise.resolve(undefined),
      close: () => Promise.resolve(),
    };
  }
  // The MCP SDK is imported on start, after the prompt is up, never by createHac itself.
  let pool: McpPool | undefined;
  let loading: Promise<McpPool> | undefined;
  let ready = false;
  let readyPromise: Promise<void> | undefined;
  const load = () =>
    (loading ??= import('../mcp/index.js').then(({ McpPool, preloadSchemas }) => {
      // The SDK builds its schemas on the first connection, a few tens of milliseconds on the main thread: done
      // here, so a host that waits for the load before its prompt keeps that work from the first keystrokes too.
      preloadSchemas();
      pool = new McpPool({
        file: paths.mcpServers,
        authDir: paths.mcpAuth,
        logger,
        env,
        connectTimeoutMs,
        secrets,
        views,
      });
      pool.subscribe((event) => {
        for (const listener of listeners) listener(event);
      });
      return pool;
    }));
  const listeners = new Set<(event: McpPoolEvent) => void>();

  // Each server's tools as last listed: while the servers start, a turn is sent with them (the call waits).
  const known = new KnownTools(paths.mcpTools, logger);
  let entries: Map<string, { digest: string; description: string }> | undefined;
  /** Every enabled server has a known list for its entry as it is: a turn need not wait for them. */
  let covered = false;
  const readEntries = Promise.resolve().then(() => {
    entries = enabledEntries(paths.mcpServers);
    covered = !!entries?.size && [...entries].every(([name, { digest }]) => known.get(name, digest));
  });
  listeners.add(({ server }) => {
    const listed = pool?.listedTools(server);
    const digest = entries?.get(server)?.digest;
    if (listed && digest) known.remember(server, digest, listed);
  });
  /** A known tool: offered as listed last time; its call waits for the servers and runs what they list now. */
  const knownTool = (server: string, serverDescription: string, info: McpToolInfo): Tool => ({
    server,
    serverDescription,
    name: info.name,
    description: info.description,
    inputSchema: info.inputSchema,
    annotations: info.annotations,
    async call(args, signal, context) {
      const live = (await settled().then(() => pool?.tools()))?.find(
        (t) => t.server === server && t.name === info.name,
      );
      if (!live) {
        // The server did not come up, or came up without the tool.
        const status = pool?.status().find((s) => s.name === server);
        const why =
          status && status.state !== 'connected'
            ? `${server} is not connected (${status.reason ?? status.state})`
            : `${server} no longer offers the tool "${info.name}"`;
        return { text: `${why}: ${server}/${info.name} was not run.`, isError: true };
      }
      if (live.description !== info.description)
        return {
          text: `${server}/${info.name} changed since it was offered (a new description): it was not run. The next request offers it as it is now.`,
          isError: true,
        };
      return live.call(args, signal, context);
    },
  });
  /** The tools of a turn: each server's live list once it has one, its known list while it starts. */
  const tools = (): Tool[] => {
    const live = pool?.tools() ?? [];
    if (ready || !covered || !entries) return live;
    const settledServers = new Set(
      (pool?.status() ?? []).filter((s) => s.state !== 'connecting').map((s) => s.name),
    );
    return [...entries].flatMap(([name, { digest, description }]) =>
      settledServers.has(name)
        ? live.filter((t) => t.server === name)
        : (known.get(name, digest) ?? [])
            .filter((info) => info.visibility.includes('model'))
            .map((info) => knownTool(name, description, info)),
    );
  };

  const start = () => {
    if (!loading && !hasEnabledServer(paths.mcpServers)) {
      ready = true;
      return Promise.resolve();
    }
    return (readyPromise ??= load()
      .then((p) => p.ready())
      .then(() => {
        ready = true;
      }));
  };
  // Connected or failed, and lists a server said changed read again.
  const settled = () => start().then(() => pool?.listsSettled());
  return {
    source: {
      isReady: () => ready || covered,
      // Servers whose tools are known are not waited for until a call needs them.
      ready: () => (ready ? settled() : readEntries.then(() => (covered ? undefined : settled()))),
      tools,
    },
    start: () => void start(),
    load: () =>
      hasEnabledServer(paths.mcpServers)
        ? load().then(
            () => undefined,
            () => undefined, // a failure is the pool's to report once started
          )
        : Promise.resolve(),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async view(ifStarted = false) {
      if (ifStarted && !loading) return { servers: [], file: paths.mcpServers };
      const p = await load();
      await p.start();
      await p.listsSettled();
      const servers: McpServerView[] = p.status().map((s) => ({
        name: s.name,
        enabled: s.enabled,
        description: s.description || undefined,
        state: s.state === 'disconnected' ? 'connected' : s.state,
        remote: s.transport !== 'stdio',
        reason: s.reason,
        tools: s.tools,
        stderrTail: s.stderrTail,
        revision: s.revision,
        prompts: s.prompts,
        resources: s.resources,
      }));
      return { servers, error: p.configError, file: paths.mcpServers };
    },
    setEnabled: async (name, on) => (await load()).setEnabled(name, on),
    async signIn(name) {
      const { url, done } = await (await load()).signIn(name);
      return { url: url?.href, done };
    },
    pasteSignIn: async (name, text) => (await load()).pasteSignIn(name, text),
    signOut: async (name) => (await load()).signOut(name),
    pool: () => pool,
    readyPool: () => settled().then(() => pool),
    close: async () => {
      if (loading) await (await loading).close();
      await known.flush();
    },
  };
}

/**
 * Whether mcp-servers.json names a server that is not switched off: loading the MCP SDK costs the main thread
 * about a tenth of a second, which a file with none should not cost. A file that does not parse counts as yes:
 * the pool reports what is wrong with it.
 */
function hasEnabledServer(file: string): boolean {
  try {
    const servers = (
      JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as { mcpServers?: unknown }
    ).mcpServers;
    if (!servers || typeof servers !== 'object') return true;
    return Object.values(servers).some((entry) => (entry as { enabled?: unknown } | null)?.enabled !== false);
  } catch {
    return true;
  }
}
