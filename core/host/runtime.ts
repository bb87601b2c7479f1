import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CommandContext, McpServerView } from '../commands/command-types.js';
import { activeModelChanges } from '../config/active-model-changes.js';
import { ensureHome, readBaseSystemPrompt } from '../config/first-run.js';
import { updateJsonFile } from '../config/json-edit.js';
import { allowChanges, disallowChanges } from '../config/allowed-tools-changes.js';
import { approvalKey, descriptionDigest } from '../tools/approval.js';
import { resolveApiKey, type HacConfig, type ModelConfig } from '../config/load-config.js';
import { discoverAccountModels } from '../providers/discover-account-models.js';
import { discoverOllama } from '../providers/ollama/discover-ollama-models.js';
import { hacPaths, userHome, type HacPaths } from '../config/paths.js';
import { lastSummarised, MemoryBook, restoreSnapshot } from '../memory/memory-book.js';
import { forgetLine, readPersonalMemory, rememberLine } from '../memory/personal-memory.js';
import { readWorkspaceMemory } from '../memory/workspace-memory.js';
import { Conversation } from '../engine/conversation.js';
import { Engine } from '../engine/engine.js';
import { ConfigError, HacError } from '../errors/hac-error.js';
import { blockingCalls, pooledCalls, writeNewFile } from '../fs/atomic-write.js';
import { sessionStamp } from '../sessions/session-name.js';
import { createFileLogger, type FileLogger } from '../logging/file-logger.js';
import type { Logger } from '../logging/logger.js';
import { SecretRegistry } from '../logging/secrets.js';
import type { McpPool, McpPoolEvent } from '../mcp/index.js';
import { createMcpHandle } from './mcp-loader.js';
import { LiveConfig } from './live-config.js';
import { sdkChatModels } from './chat-models.js';
import { conversationCommands, type ConversationCommands } from './conversation-commands.js';
import type { ChatModel } from '../providers/chat-model.js';
import { FileSessionStore } from '../sessions/session-store.js';
import { sweepTempFiles } from './temp-file-sweep.js';
import { workingDirectory } from './attachments.js';

import type { DiscoveredModel } from '../config/discovered-model.js';
import { firstRunChoices } from '../config/environment-models.js';
import { fitTools, fittedToolsNotice } from '../tools/tool-limit.js';
import { toolBounds, toolShareCounter } from '../engine/turn-setup.js';

/** Options of createRuntime; tests pass a temp home and may inject a logger, env and clocks. */
export interface RuntimeOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Retry waits; tests inject one that does not sleep. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => Date;
  timeZone?: string;
  /** The pool's connect timeout (default 30 s). */
  mcpConnectTimeoutMs?: number;
  /** `hac --model <name>`: use this configured model (by name or id) for this run, without saving it. */
  model?: string;
  /** Tests: the ChatModel for a configured model, instead of the provider's SDK client. */
  chatModel?: (model: ModelConfig) => Promise<ChatModel>;
  /**
   * Nothing else runs while a session file is written (`hac -p`, whose last write stands between the answer and
   * its exit): a new file's calls are made one after another on this thread, not each through the thread pool.
   */
  blockingWrites?: boolean;
  /** The host can show tools' views (MCP Apps: a window, a browser tab, the REPL's `/view`); not `hac -p`. */
  views?: boolean;
}

/** What `/mcp`, `/toggle-mcp` and the MCP problem lines read. */
export interface McpView {
  servers: McpServerView[];
  error?: ConfigError;
  file: string;
}

/** One conversation of its own (a window, a tab, the REPL): engine, context, session file, commands. */
export interface Chat {
  engine: Engine;
  commands: CommandContext;
  conversation: Conversation;
}

/** A setting one conversation changed in config.json or mcp-servers.json, which every conversation shares. */
export interface SettingsChange {
  /** What changed, as the command that changed it said it (`Tool call mode set to auto.`). */
  text: string;
  /** The conversation it was changed in. */
  chat: Chat;
}

/** What differs between conversations of one process. */
export interface ChatOptions {
  /** How long streamed text collects before the engine hands it on: 0 a terminal, 16 ms a window. */
  deltaBatchMs?: number;
  /** The front end's own keys (key, what it does), which `/help` lists after the commands. */
  keys?: readonly (readonly [string, string])[];
}

/**
 * What one process shares between its conversations: config, log, MCP pool, model clients. Knows
 * nothing about terminals or windows.
 */
export interface Runtime {
  paths: HacPaths;
  config(): HacConfig;
  logger: Logger;
  /** Every secret value known to this process; each sink (screen, JSONL, the window's events) redacts with it. */
  secrets: SecretRegistry;
  /** Starts MCP servers in the background; the first message waits for them. */
  startMcp(): void;
  /** Loads the MCP SDK for the enabled servers, not starting them (see McpHandle.load). */
  loadMcp(): Promise<void>;
  /** Called when a server's state or tools change; returns the function that stops it. */
  onMcpChange(listener: (event: McpPoolEvent) => void): () => void;
  /** The servers as /mcp shows them; with `ifStarted`, none unless the MCP SDK is loaded already (no server on). */
  mcpServers(ifStarted?: boolean): Promise<McpView>;
  /** The MCP pool once loaded, for prompts, resources and completions; undefined before or without servers. */
  mcpPool(): McpPool | undefined;
  /** The same, once every server has connected or failed: what `/prompts` and `@server:uri` wait for. */
  mcpReady(): Promise<McpPool | undefined>;
  /** The lines that say which servers' tools the active model is not offered, and why (none when all fit). */
  toolLimitLines(): Promise<string[]>;
  /** Called when a conversation changes a shared setting (model, tool mode, servers); returns the unsubscribe. */
  onSettingsChange(listener: (change: SettingsChange) => void): () => void;
  /** What a first run could be set up with (no config.json yet): keys in the environment, a local Ollama's models. */
  setUpChoices(): Promise<{ model: DiscoveredModel; label: string }[]>;
  /** While config.json has no model: waits until the model the environment gives (if any) is in `config()`. */
  modelFromEnvironment(): Promise<void>;
  /** A new conversation, sharing everything above. */
  openChat(options?: ChatOptions): Chat;
  /** Closes every MCP session (stdio children are gone when it resolves) and flushes the log. */
  close(): Promise<void>;
}

/**
 * The composition root (design.md): config -> providers -> tools -> sessions; engines and commands per chat.
 * Throws ConfigError for a broken config.json, logged first; a broken mcp-servers.json only empties
 * the pool.
 */
export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env;
  const paths = hacPaths(options.home);
  await ensureHome(paths);
  let live: LiveConfig;
  try {
    live = await LiveConfig.read(paths.config, env, options.model);
  } catch (error) {
    await logStartFailure(paths, options.logger, error);
    throw error;
  }
  const config = () => live.current;
  const secrets = new SecretRegistry();
  const rememberSecrets = () => secrets.add(config().models.map((m) => resolveApiKey(m, env)));
  rememberSecrets();
  const fileLogger: FileLogger | undefined = options.logger
    ? undefined
    : createFileLogger(paths.logs, config().logLevel, secrets);
  const logger = options.logger ?? fileLogger!;

  // Temp files of a writer killed mid-write go in the background; close() waits for it.
  const cleanup = sweepTempFiles(paths, logger);

  const mcp = createMcpHandle(paths, logger, env, secrets, {
    connectTimeoutMs: options.mcpConnectTimeoutMs,
    views: options.views,
  });
  const sessions = new FileSessionStore(
    paths.sessions,
    secrets,
    options.blockingWrites ? blockingCalls : pooledCalls,
  );
  // The window's workspace is the folder its process started in, as a terminal's is.
  const memory = new MemoryBook(
    { personal: paths.memory, workspace: workingDirectory(), home: userHome(env) },
    logger,
  );
  const chatModel = options.chatModel ?? sdkChatModels(paths.config, config, logger, env);

  live.onReload((loaded) => {
    fileLogger?.setLevel(loaded.logLevel);
    rememberSecrets();
  });
  const reload = () => live.reload();

  // What every conversation's commands share; the session commands are added per chat.
  const shared: Omit<CommandContext, keyof ConversationCommands | 'keys'> = {
    config,
    async setActiveModel(choice) {
      live.dropModelOverride();
      await updateJsonFile(paths.config, (current) => activeModelChanges(current, choice));
      const active = (await reload()).activeModel!;
      logger.info(`Active model set to ${active.label} (${active.provider}).`);
      return active;
    },
    async setToolCallMode(mode) {
      await updateJsonFile(paths.config, [{ path: ['toolCallMode'], value: mode }]);
      await reload();
      logger.info(`Tool call mode set to ${mode}.`);
    },
    async allowTool(tool) {
      const key = approvalKey(tool);
      await updateJsonFile(paths.config, (current) =>
        allowChanges(current, key, descriptionDigest(tool.description)),
      );
      await reload();
      logger.info(`${key} is allowed without asking.`);
    },
    async disallowTool(key) {
      await updateJsonFile(paths.config, (current) => disallowChanges(current, key));
      await reload();
      logger.info(`${key} asks again before each call.`);
    },
    mcpServers: () => mcp.view(),
    async memory() {
      const workspace = await readWorkspaceMemory(workingDirectory(), userHome(env));
      const summarisedAt = await lastSummarised(paths.memory);
      const personal = await readPersonalMemory(paths.memory);
      return { file: paths.memory, personal, ...workspace, ...(summarisedAt && { summarisedAt }) };
    },
    async restoreMemory() {
      const lines = await restoreSnapshot(paths.memory);
      if (lines !== undefined) memory.keepWhole(await readPersonalMemory(paths.memory));
      return lines;
    },
    remember: (fact) => rememberLine(paths.memory, fact),
    forget: (n) => forgetLine(paths.memory, n),
    setMcpEnabled: (name, on) => mcp.setEnabled(name, on),
    mcpSignIn: (name) => mcp.signIn(name),
    mcpPasteSignIn: (name, text) => mcp.pasteSignIn(name, text),
    mcpSignOut: (name) => mcp.signOut(name),
    saveToolResult: (label, text) => saveToolResult(paths.toolResults, label, text),
    discoverModels: async () =>
      (
        await Promise.all([discoverOllama(config(), logger), discoverAccountModels(config(), env, logger)])
      ).flat(),
    async toolLimitLines() {
      const { activeModel: active, askUserTool, memory: remembers } = config();
      const tools = mcp.source.tools();
      // Nothing to leave out: the model's SDK (and its tokenizer) need not load for this.
      if (!active || !tools.length) return [];
      const bounds = toolBounds(config(), active, await chatModel(active), await toolShareCounter(active));
      const builtins = (askUserTool ? 1 : 0) + (remembers ? 1 : 0);
      return fittedToolsNotice(active.label, bounds, fitTools(tools, bounds, builtins));
    },
  };

  const fromEnvironment = () => live.fromEnvironment(logger);
  const modelFromEnvironment = () => live.modelFromEnvironment(logger);

  const settingsListeners = new Set<(change: SettingsChange) => void>();
  const announce = (change: SettingsChange) => {
    for (const listener of settingsListeners) listener(change);
  };

  return {
    paths,
    config,
    logger,
    secrets,
    onSettingsChange(listener) {
      settingsListeners.add(listener);
      return () => void settingsListeners.delete(listener);
    },
    startMcp: () => mcp.start(),
    loadMcp: () => mcp.load(),
    onMcpChange: (listener) => mcp.subscribe(listener),
    mcpServers: (ifStarted) => mcp.view(ifStarted),
    mcpPool: () => mcp.pool(),
    setUpChoices: () => firstRunChoices(paths.config, fromEnvironment),
    modelFromEnvironment,
    mcpReady: () => mcp.readyPool(),
    toolLimitLines: () => shared.toolLimitLines(),
    openChat(chatOptions = {}) {
      const conversation = new Conversation(sessions, logger);
      // A conversation with no model in config.json looks for one in the environment at once.
      if (!config().models.length) void fromEnvironment();
      const engine = new Engine({
        config,
        modelFromEnvironment,
        allowTool: (tool) => shared.allowTool(tool),
        basePrompt: () => readBaseSystemPrompt(paths),
        chatModel,
        toolSource: mcp.source,
        conversation,
        logger,
        now: options.now,
        timeZone: options.timeZone,
        sleep: options.sleep,
        deltaBatchMs: chatOptions.deltaBatchMs,
        memory: { book: memory, remember: (fact) => rememberLine(paths.memory, fact) },
      });
      const commands: CommandContext = {
        ...shared,
        keys: chatOptions.keys ?? [],
        // What one conversation changes, every other one is told of (their status lines, their next turn).
        async setActiveModel(choice) {
          const active = await shared.setActiveModel(choice);
          announce({ text: `Active model set to ${active.label} (${active.provider}).`, chat });
          return active;
        },
        async setToolCallMode(mode) {
          await shared.setToolCallMode(mode);
          announce({ text: `Tool call mode set to ${mode}.`, chat });
        },
        async setMcpEnabled(name, on) {
          await shared.setMcpEnabled(name, on);
          announce({ text: `Server "${name}" is now ${on ? 'enabled' : 'disabled'}.`, chat });
        },
        ...conversationCommands(conversation, sessions),
      };
      const chat: Chat = { engine, commands, conversation };
      return chat;
    },
    close: async () => {
      // The answers' saves run behind the prompt: every one begun is on disk before hac is gone.
      await Promise.all([mcp.close(), cleanup, sessions.flush()]);
      await fileLogger?.flush();
    },
  };
}

/** A whole tool result as `tool-results/<stamp>_<server>_<tool>.txt` (0600), never replacing a file. */
async function saveToolResult(folder: string, label: string, text: string): Promise<string> {
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  const base = `${sessionStamp(new Date())}_${label.replace(/[^\p{L}\p{Nd}_-]+/gu, '_')}`;
  return writeNewFile(
    (n) => (n < 100 ? path.join(folder, `${base}${n > 1 ? `_${n}` : ''}.txt`) : undefined),
    text,
  );
}

/** A config.json that stops start-up is reported on screen by the host, and also kept in the day's log. */
async function logStartFailure(paths: HacPaths, injected: Logger | undefined, error: unknown): Promise<void> {
  if (!(error instanceof ConfigError) && !(error instanceof HacError)) return;
  try {
    const logger = injected ?? createFileLogger(paths.logs, 'info');
    logger.error(`Start-up failed: ${error.message}`);
    if (!injected) await (logger as FileLogger).flush();
  } catch {
    // The log is a convenience here: the host still shows the report.
  }
}
