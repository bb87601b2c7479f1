import path from 'node:path';
import { updateJsonFile } from '../config/json-edit.js';
import { ConfigError } from '../errors/hac-error.js';
import { silentLogger, type Logger } from '../logging/logger.js';
import { routeSdkWarnings } from './sdk-warnings.js';
import type { SecretRegistry } from '../logging/secrets.js';
import type { Tool, ToolCallContext, ToolResult } from '../tools/tool.js';
import { loadMcpServers, type McpServerConfig } from './mcp-config.js';
import { McpConnection, type McpServerState } from './mcp-connection.js';
import { describeError, McpPoolError } from './mcp-errors.js';
import type { McpToolInfo } from './list-tools.js';
import { McpTool } from './mcp-tool.js';
import type { Elicit } from './elicitation.js';
import { promptContent, resourceContent, type FeatureContent } from './feature-content.js';
import type { McpPromptInfo, McpResourceInfo } from './list-features.js';
import { McpAuthStore } from './oauth/auth-store.js';
import { toolResultText } from './tool-result-text.js';
import { PoolViews } from './pool-views.js';
import { settlesWithin } from './timing.js';

/** How long `/mcp` and the next turn wait for a server to list what it said changed. */
const REFRESH_WAIT_MS = 2000;

/** Options of the pool; everything but `file` has a default. */
export interface McpPoolOptions {
  /** Path of mcp-servers.json (from core/config/paths.ts). */
  file: string;
  logger?: Logger;
  /** hac's environment, the source of `${VAR}` values. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Per server. Default 30 s. */
  connectTimeoutMs?: number;
  /** Grace before a stdio child is killed on close. Default 2 s. */
  killAfterMs?: number;
  clientInfo?: { name: string; version: string };
  /** Where the env and header values of every server are registered as secrets. */
  secrets?: SecretRegistry;
  /** Where sign-ins of remote servers are kept. Default: `mcp-auth/` beside mcp-servers.json. */
  authDir?: string;
  /** Sign in without asking, the link opened with this (test clients that play the browser). */
  autoSignIn?: (server: string, url: URL) => void;
  /** The host can show a tool's view (MCP Apps): servers are told so. Not for a one-shot run. */
  views?: boolean;
}

/** What `/mcp` and `/toggle-mcp` show for one configured server, in file order. */
export interface McpServerStatus {
  name: string;
  description: string;
  enabled: boolean;
  transport: McpServerConfig['transport'];
  state: McpServerState;
  /** Why it failed or disconnected, one line. */
  reason: string | undefined;
  tools: { name: string; description: string }[];
  /** The last lines of a stdio server's stderr (at most 20). */
  stderrTail: string[];
  /** The protocol revision the open session speaks (2026-07-28 is the stateless one). */
  revision: string | undefined;
  /** How many prompts and resources (with templates) it offers. */
  prompts: number;
  resources: number;
}

/** A server's prompt or resource, with the server it belongs to. */
export type Offered<T> = T & { server: string };

/** Something changed: a server's state or its tool list. Hosts re-read `status()` / `tools()`. */
export interface McpPoolEvent {
  type: 'status' | 'tools';
  server: string;
}

/**
 * Every MCP server of mcp-servers.json behind one object (design: "The seams"): background start,
 * status for /mcp, tools for the engine, calls, enable/disable, and a close that leaves no process behind.
 * A broken file never throws out of it: the pool is empty and `configError` says why.
 */
export class McpPool {
  private connections: McpConnection[] = [];
  /** Views read this run, by server and address. */
  private loadError: ConfigError | undefined;
  private started: Promise<void> | undefined;
  private initial: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly listeners = new Set<(event: McpPoolEvent) => void>();
  private readonly logger: Logger;

  constructor(private readonly options: McpPoolOptions) {
    this.logger = options.logger ?? silentLogger;
    routeSdkWarnings(this.logger);
  }

  /**
   * Reads mcp-servers.json and starts every enabled server in parallel, in the background.
   * Resolves once the file is read (not when servers are up: see `ready()`). Never rejects.
   */
  start(): Promise<void> {
    this.started ??= this.load();
    return this.started;
  }

  /** Settles when every server started by `start()` has connected or failed. */
  async ready(): Promise<void> {
    await this.start();
    await this.initial;
  }

  /**
   * Settles when the lists servers said changed have been read again, or after `REFRESH_WAIT_MS` (a server
   * slow to list is shown with what was known; its new lists follow with a `tools` event).
   */
  async listsSettled(): Promise<void> {
    await settlesWithin(Promise.all(this.connections.map((c) => c.listsSettled())), REFRESH_WAIT_MS);
  }

  /** The error of a broken mcp-servers.json, kept for `/mcp`. */
  get configError(): ConfigError | undefined {
    return this.loadError;
  }

  /** Every configured server in file order, enabled or not. */
  status(): McpServerStatus[] {
    return this.connections.map((c) => ({
      name: c.name,
      description: c.config.description,
      enabled: c.state !== 'disabled',
      transport: c.config.transport,
      state: c.state,
      reason: c.reason,
      tools: c.tools.map((t) => ({ name: t.name, description: t.description })),
      stderrTail: c.stderr.lines(),
      revision: c.state === 'connected' ? c.revision : undefined,
      prompts: c.features.prompts.length,
      resources: c.features.resources.length,
    }));
  }

  /** Every prompt of the servers that are connected, in configuration order. */
  prompts(): Offered<McpPromptInfo>[] {
    return this.usable().flatMap((c) => c.features.prompts.map((p) => ({ ...p, server: c.name })));
  }

  /** Every resource and resource template of the servers that are connected, in configuration order. */
  resources(): Offered<McpResourceInfo>[] {
    return this.usable().flatMap((c) => c.features.resources.map((r) => ({ ...r, server: c.name })));
  }

  /** A prompt filled in with `args`: its messages as the user's text; `elicit` asks what the server asks. */
  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
    elicit?: Elicit,
  ): Promise<FeatureContent> {
    this.assertOpen(server);
    const result = await this.connection(server).request(
      signal,
      (client) => client.getPrompt({ name, arguments: args }, { signal }),
      elicit,
    );
    return promptContent(result.messages);
  }

  /** A resource's contents, for the message it is attached to (named there as `server:uri`). */
  async readResource(
    server: string,
    uri: string,
    signal: AbortSignal,
    elicit?: Elicit,
  ): Promise<FeatureContent> {
    this.assertOpen(server);
    const result = await this.connection(server).request(
      signal,
      (client) => client.readResource({ uri }, { signal }),
      elicit,
    );
    return resourceContent(`${server}:${uri}`, result.contents);
  }

  /** Every tool a connected server listed, as listed (the known tools kept for the next run); else undefined. */
  listedTools(server: string): McpToolInfo[] | undefined {
    const connection = this.connections.find((c) => c.name === server);
    return connection?.state === 'connected' ? connection.tools : undefined;
  }

  /** What views (MCP Apps) ask of their servers: a view's resource, its calls and reads, its bridge. */
  readonly views = new PoolViews(
    (server) => {
      this.assertOpen(server);
      return this.connection(server);
    },
    (server) => this.connections.find((c) => c.name === server),
  );

  /** The server's suggestions for a prompt's argument (`completion/complete`); none when it has no completions. */
  async completePrompt(
    server: string,
    prompt: string,
    argument: { name: string; value: string },
    given: Record<string, string>,
  ): Promise<string[]> {
    const connection = this.connection(server);
    if (connection.state !== 'connected') return [];
    const signal = AbortSignal.timeout(2_000);
    try {
      const result = await connection.request(signal, (client) =>
        client.getServerCapabilities()?.completions
          ? client.complete(
              { ref: { type: 'ref/prompt', name: prompt }, argument, context: { arguments: given } },
              { signal },
            )
          : Promise.resolve(undefined),
      );
      return result?.completion.values ?? [];
    } catch (error) {
      this.logger.debug(`MCP ${server}: completion failed: ${describeError(error)}`);
      return [];
    }
  }

  /**
   * The tools the model may call: those of enabled servers that are connected, or whose session
   * ended and will reopen on use, in configuration order and the server's tool order.
   */
  tools(): Tool[] {
    // A tool meant for its views alone (MCP Apps) is not the model's to call.
    return this.usable().flatMap((c) =>
      c.tools
        .filter((info: McpToolInfo) => info.visibility.includes('model'))
        .map((info: McpToolInfo) => new McpTool(this, c.name, c.config.description, info)),
    );
  }

  /**
   * Calls a tool and converts its result to text; `elicit` asks the user what the server asks meanwhile. Throws McpPoolError for an unknown or
   * disabled server, a failed session, a timeout (`mcp-timeout`) or a cancel (`cancelled`).
   */
  async call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    context?: ToolCallContext,
  ): Promise<ToolResult> {
    this.assertOpen(server);
    const connection = this.connection(server);
    const result = await connection.call(tool, args, signal, context);
    const view = connection.tools.find((listed) => listed.name === tool)?.view;
    if (!view || !this.options.views || result.isError === true) return toolResultText(result);
    // What the view is given: the result as the server sent it (its structured content above all).
    const { content, structuredContent, _meta } = result as Record<string, unknown>;
    const whole = {
      content,
      ...(structuredContent === undefined ? {} : { structuredContent }),
      ...(_meta ? { _meta } : {}),
    };
    return { ...toolResultText(result), view: { resourceUri: view.resourceUri, result: whole } };
  }

  /**
   * Flips `enabled` in mcp-servers.json, keeping the rest of the file as written,
   * then connects or disconnects the server. A broken file throws its ConfigError and nothing changes.
   */
  async setEnabled(server: string, on: boolean): Promise<void> {
    await this.start();
    this.assertOpen(server);
    const connection = this.connection(server);
    await updateJsonFile(this.options.file, [{ path: ['mcpServers', server, 'enabled'], value: on }]);
    this.logger.info(`MCP server "${server}" ${on ? 'enabled' : 'disabled'}.`);
    if (on) {
      if (connection.state === 'disabled') void connection.open();
    } else {
      await connection.stop('disabled');
    }
  }

  /**
   * `/mcp login`: starts a browser sign-in to a remote server. Resolves with the link for the user (undefined
   * when the server connected without one) and `done`, settled when it is connected or the sign-in ended.
   */
  async signIn(server: string): Promise<{ url: URL | undefined; done: Promise<void> }> {
    await this.start();
    this.assertOpen(server);
    return this.connection(server).signIn();
  }

  /** The address the browser ended on, or the code, pasted back by the user. */
  pasteSignIn(server: string, text: string): void {
    this.connection(server).pasteSignIn(text);
  }

  /** `/mcp logout`: forgets the server's tokens; resolves with whether there were any. */
  async signOut(server: string): Promise<boolean> {
    await this.start();
    this.assertOpen(server);
    return this.connection(server).signOut();
  }

  /** Listens to state and tool-list changes; returns the unsubscribe function. */
  subscribe(listener: (event: McpPoolEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes every session and waits until every stdio child has exited (killed after the grace). */
  async close(): Promise<void> {
    this.closed = true;
    await this.started;
    await Promise.all(
      this.connections.map((c) => c.stop(c.state === 'disabled' ? 'disabled' : 'disconnected')),
    );
    this.listeners.clear();
  }

  private async load(): Promise<void> {
    let servers: McpServerConfig[];
    try {
      const loaded = await loadMcpServers(this.options.file);
      servers = loaded.servers;
      // Invalid entries are left out and named (in /mcp, and at start); the valid servers start all the same.
      this.loadError = loaded.skipped;
      if (loaded.skipped) this.logger.error(loaded.skipped.message);
    } catch (error) {
      this.loadError =
        error instanceof ConfigError
          ? error
          : new ConfigError(this.options.file, [
              { at: '(file)', message: `cannot be read: ${describeError(error)}` },
            ]);
      this.logger.error(this.loadError.message);
      return;
    }
    if (this.closed) return;
    const { options } = this;
    const authDir = options.authDir ?? path.join(path.dirname(options.file), 'mcp-auth');
    const authStore = new McpAuthStore(authDir, this.logger, options.secrets);
    this.connections = servers.map(
      (config) =>
        new McpConnection(config, {
          logger: this.logger,
          env: options.env ?? process.env,
          connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
          killAfterMs: options.killAfterMs ?? 2_000,
          clientInfo: options.clientInfo ?? { name: 'hac', version: '0.1.0' },
          onChange: () => this.emit(config.name),
          secrets: options.secrets,
          authStore,
          autoSignIn: options.autoSignIn,
          views: options.views,
        }),
    );
    this.initial = this.openOneByOne(this.connections.filter((c) => c.config.enabled));
  }

  /**
   * Opens each server in a task of its own: starting a process costs the main thread a few milliseconds, and a
   * key typed meanwhile is read between two of them rather than after twenty.
   */
  private async openOneByOne(connections: McpConnection[]): Promise<void> {
    const opened: Promise<unknown>[] = [];
    for (const connection of connections) {
      if (this.closed) break;
      opened.push(connection.open());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(opened);
  }

  /** Enabled servers that are connected, or whose session ended and will reopen on use. */
  private usable(): McpConnection[] {
    return this.connections.filter((c) => c.state === 'connected' || c.state === 'disconnected');
  }

  private assertOpen(server: string): void {
    if (this.closed)
      throw new McpPoolError('mcp-not-connected', server, 'MCP servers are closed: hac is shutting down.');
  }

  private connection(server: string): McpConnection {
    const found = this.connections.find((c) => c.name === server);
    if (!found)
      throw new McpPoolError(
        'mcp-unknown-server',
        server,
        `No MCP server named "${server}" in mcp-servers.json.`,
      );
    return found;
  }

  private lastSeen = new Map<string, string>();

  private emit(server: string): void {
    const connection = this.connections.find((c) => c.name === server);
    // One callback serves both kinds: a state change, or the same state with a new tool list.
    const state = connection ? `${connection.state}:${connection.reason ?? ''}` : '';
    const type = this.lastSeen.get(server) === state ? 'tools' : 'status';
    this.lastSeen.set(server, state);
    for (const listener of this.listeners) listener({ type, server });
  }
}
