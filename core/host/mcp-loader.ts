import { existsSync } from 'node:fs';
import type { McpServerView } from '../commands/command-types.js';
import type { HacPaths } from '../config/paths.js';
import type { ToolSource } from '../tools/tool.js';
import type { ConfigError } from '../errors/hac-error.js';
import type { Logger } from '../logging/logger.js';
import type { SecretRegistry } from '../logging/secrets.js';
import type { McpPool, McpPoolEvent } from '../mcp/index.js';

/** What createHac needs of the MCP pool, available before the pool (and the MCP SDK) is loaded. */
export interface McpHandle {
  source: ToolSource;
  start(): void;
  /** Returns the function that stops the listener. */
  subscribe(listener: (event: McpPoolEvent) => void): () => void;
  view(): Promise<{
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
  connectTimeoutMs?: number,
): McpHandle {
  const none = () => new Error(`No MCP servers configured in ${paths.mcpServers}.`);
  if (!existsSync(paths.mcpServers)) {
    return {
      source: { isReady: () => true, ready: () => Promise.resolve(), tools: () => [] },
      start() {},
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
    (loading ??= import('../mcp/index.js').then(({ McpPool }) => {
      pool = new McpPool({
        file: paths.mcpServers,
        authDir: paths.mcpAuth,
        logger,
        env,
        connectTimeoutMs,
        secrets,
      });
      pool.subscribe((event) => {
        for (const listener of listeners) listener(event);
      });
      return pool;
    }));
  const listeners = new Set<(event: McpPoolEvent) => void>();
  const start = () =>
    (readyPromise ??= load()
      .then((p) => p.ready())
      .then(() => {
        ready = true;
      }));
  // Connected or failed, and lists a server said changed read again.
  const settled = () => start().then(() => pool?.listsSettled());
  return {
    source: {
      isReady: () => ready,
      ready: settled,
      tools: () => pool?.tools() ?? [],
    },
    start: () => void start(),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async view() {
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
    },
  };
}
