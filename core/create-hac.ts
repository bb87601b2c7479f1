import type { CommandContext } from './commands/command-types.js';
import { activeModelChanges } from './config/active-model-changes.js';
import { ensureHome, readBaseSystemPrompt } from './config/first-run.js';
import { updateJsonFile } from './config/json-edit.js';
import { loadConfig, type HacConfig, type ModelConfig } from './config/load-config.js';
import { hacPaths, type HacPaths } from './config/paths.js';
import { Conversation } from './engine/conversation.js';
import { Engine } from './engine/engine.js';
import { createFileLogger, type FileLogger } from './logging/file-logger.js';
import type { Logger } from './logging/logger.js';
import { discoverOllama } from './config/ollama-discovery.js';
import { HacError } from './errors/hac-error.js';
import type { McpPoolEvent } from './mcp/index.js';
import { createMcpHandle } from './mcp-loader.js';
import type { ChatModel } from './providers/chat-model.js';
import { createChatModel } from './providers/create-chat-model.js';
import { FileSessionStore } from './sessions/session-store.js';

/** Options of createHac; tests pass a temp home and may inject a logger, env and clocks. */
export interface CreateHacOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Override of the model's timeouts, per call: tests shorten them. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => Date;
  timeZone?: string;
  /** The pool's connect timeout (R-MCP-5, default 30 s). */
  mcpConnectTimeoutMs?: number;
  /** `hac --model <name>`: use this configured model (by name or id) for this run, without saving it. */
  model?: string;
}

/** A running hac: what a host needs, and nothing about terminals or windows. */
export interface Hac {
  paths: HacPaths;
  config(): HacConfig;
  engine: Engine;
  commands: CommandContext;
  logger: Logger;
  /** Starts MCP servers in the background (R-TTY-5); the first message waits for them. */
  startMcp(): void;
  /** Called when a server's state or tools change; read `commands.mcpServers()` for the details. */
  onMcpChange(listener: (event: McpPoolEvent) => void): void;
  /** Closes every MCP session; stdio children are gone when it resolves (R-MCP-6). */
  close(): Promise<void>;
}

/**
 * The composition root (design.md): config -> providers -> tools -> sessions -> engine -> commands.
 * Throws ConfigError for a broken config.json (R-CFG-9); a broken mcp-servers.json only empties the pool.
 */
export async function createHac(options: CreateHacOptions = {}): Promise<Hac> {
  const env = options.env ?? process.env;
  const paths = hacPaths(options.home);
  await ensureHome(paths);
  // `--model` holds until the user picks another model with /set-model.
  let modelOverride = options.model;
  const pick = (loaded: HacConfig): HacConfig => {
    if (modelOverride === undefined) return loaded;
    const chosen = loaded.models.find((m) => m.label === modelOverride || m.id === modelOverride);
    if (!chosen) {
      const names = loaded.models.map((m) => m.label).join(', ') || 'none';
      throw new HacError('usage', `No configured model is named "${modelOverride}". Use one of: ${names}.`);
    }
    return { ...loaded, activeModel: chosen };
  };
  let config = pick(await loadConfig(paths.config));
  const fileLogger: FileLogger | undefined = options.logger
    ? undefined
    : createFileLogger(paths.logs, config.logLevel);
  const logger = options.logger ?? fileLogger!;
  const rememberSecrets = () =>
    fileLogger?.addSecrets(
      config.models.map((m) => m.apiKey?.replace(/^\$\{(\w+)\}$/, (_m, v: string) => env[v] ?? '')),
    );
  rememberSecrets();

  const mcp = createMcpHandle(paths, logger, env, options.mcpConnectTimeoutMs);
  const conversation = new Conversation(new FileSessionStore(paths.sessions), logger);
  const models = new Map<string, Promise<ChatModel>>();
  const chatModel = (model: ModelConfig) => {
    const key = JSON.stringify(model);
    let made = models.get(key);
    if (!made) {
      // A debug copy of every answer only when the log would keep it.
      made = createChatModel({
        model,
        configFile: paths.config,
        logger,
        env,
        logResponses: config.logLevel === 'debug',
        extraBody: model.extraBody,
      });
      models.set(key, made);
    }
    return made;
  };

  const engine = new Engine({
    config: () => config,
    basePrompt: () => readBaseSystemPrompt(paths),
    chatModel,
    toolSource: mcp.source,
    conversation,
    logger,
    now: options.now,
    timeZone: options.timeZone,
    sleep: options.sleep,
  });

  const reload = async () => {
    config = pick(await loadConfig(paths.config));
    fileLogger?.setLevel(config.logLevel);
    rememberSecrets();
    return config;
  };

  const commands: CommandContext = {
    config: () => config,
    async setActiveModel(choice) {
      modelOverride = undefined;
      await updateJsonFile(paths.config, (current) => activeModelChanges(current, choice));
      const next = await reload();
      const active = next.activeModel!;
      logger.info(`Active model set to ${active.label} (${active.provider}).`);
      return active;
    },
    async setToolCallMode(mode) {
      await updateJsonFile(paths.config, [{ path: ['toolCallMode'], value: mode }]);
      await reload();
      logger.info(`Tool call mode set to ${mode}.`);
    },
    newSession: () => conversation.reset(),
    listSessions: () => new FileSessionStore(paths.sessions).list(20),
    resumeSession: (file) => conversation.resume(file),
    mcpServers: () => mcp.view(),
    setMcpEnabled: (name, on) => mcp.setEnabled(name, on),
    discoverOllamaModels: () => discoverOllama(config, logger),
  };

  return {
    paths,
    config: () => config,
    engine,
    commands,
    logger,
    startMcp: () => mcp.start(),
    onMcpChange: (listener) => mcp.subscribe(listener),
    close: async () => {
      await mcp.close();
      await fileLogger?.flush();
    },
  };
}
