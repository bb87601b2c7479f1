import type { AllowedTools } from '../tools/approval.js';
import type { ToolCallMode } from '../tools/approval.js';
import { configFileSchema, CONFIG_FIXES, type ConfigFile, type ModelEntry } from './config-schema.js';
import { parseJsonText, readTextIfExists, validateJson } from './read-json-file.js';
import { knownVision } from './model-vision.js';
import type { DiscoveredModel } from './discovered-model.js';

export type Provider = 'openai' | 'ollama' | 'anthropic';
export type ThinkSetting = boolean | 'low' | 'medium' | 'high';

/** A configured model, resolved: defaults applied, `model`/`name` sorted out. */
export interface ModelConfig {
  /** Position in config.json's `models[]`. */
  index: number;
  /** The id sent to the API. */
  id: string;
  /** The name shown to the user. */
  label: string;
  provider: Provider;
  /** As written: may be `${ENV_VAR}`; resolve with `resolveApiKey` at request time. */
  apiKey?: string;
  baseUrl: string;
  think?: ThinkSetting;
  toolMode: 'native' | 'prompt';
  contextWindow?: number;
  /** Whether the model takes images: config.json's `vision`, else what is known of the model, else unknown. */
  vision?: boolean;
  /** Anthropic's required `max_tokens`; a default per model family when absent. */
  maxTokens?: number;
  /** Extra request-body fields for OpenAI-compatible servers; the fixed fields always win. */
  extraBody?: Record<string, unknown>;
  active: boolean;
  /** Not in config.json: taken from the environment (a key, OLLAMA_HOST) because config.json has no model. */
  fromEnvironment?: boolean;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
}

/** The loaded config.json with every default applied. */
export interface HacConfig {
  file: string;
  /** True when config.json does not exist. */
  missing: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  toolCallMode: ToolCallMode;
  /** Answers shown as styled Markdown in the terminal and the window. */
  markdown: boolean;
  /** The terminal speaks to a screen reader: labelled lines read once, no colour, no redrawing. */
  screenReader: boolean;
  models: ModelConfig[];
  activeModel: ModelConfig | undefined;
  contextMaxChars: number;
  minRecentMessages: number;
  toolOutputMaxChars: number;
  maxToolRounds: number;
  confirmDestructiveTools: boolean;
  /** Tools allowed for good at the Y/N question (`server/tool`), with digests of their descriptions then. */
  allowedTools: AllowedTools;
  summarize: boolean;
  summaryModel: ModelConfig | undefined;
  askUserTool: boolean;
  /** Personal and workspace memory go with every request (and the remember tool is offered). */
  memory: boolean;
  /** The share of contextMaxChars the memories may take before they are summarised. */
  memoryShare: number;
  /** The share of contextMaxChars the MCP tools' definitions may take in one request. */
  toolShare: number;
  /** Who answers, in order, when the model cannot (unavailable, timeout, rate limit, unknown model). */
  fallbackModels: ModelConfig[];
}

export const DEFAULT_BASE_URL: Record<Provider, string> = {
  openai: 'https://api.openai.com/v1',
  ollama: 'http://localhost:11434',
  anthropic: 'https://api.anthropic.com',
};

/**
 * Where a model without "baseUrl" is served: the variable people already set for the vendor's own tools (a
 * company proxy, LiteLLM, vLLM), else the vendor's address.
 */
export function defaultBaseUrl(provider: Provider, env: NodeJS.ProcessEnv = process.env): string {
  if (provider === 'openai') return env.OPENAI_BASE_URL?.trim() || DEFAULT_BASE_URL.openai;
  if (provider === 'anthropic') return env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_BASE_URL.anthropic;
  // OLLAMA_HOST is what `ollama serve` reads too: "0.0.0.0:11434", "myhost", "http://myhost:11434".
  const host = env.OLLAMA_HOST?.trim();
  if (!host) return DEFAULT_BASE_URL.ollama;
  // As Ollama reads it: with a scheme, that scheme's own port; without one, http on 11434.
  const schemed = /^https?:\/\//i.test(host);
  const url = new URL(schemed ? host : `http://${host}`);
  if (!schemed && !url.port) url.port = '11434';
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  return url.origin;
}

/**
 * Loads and validates config.json; throws ConfigError listing every problem. Never writes. `fromEnvironment`: the
 * model to use, active, when config.json has none (what a key or a local Ollama in the environment reaches).
 */
export async function loadConfig(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  fromEnvironment?: DiscoveredModel,
): Promise<HacConfig> {
  const text = await readTextIfExists(file);
  if (text === undefined) return resolveConfig(file, configFileSchema.parse({}), true, env, fromEnvironment);
  const json = parseJsonText(file, text);
  const parsed = validateJson(file, json, configFileSchema, CONFIG_FIXES);
  return resolveConfig(file, parsed, false, env, fromEnvironment);
}

function resolveConfig(
  file: string,
  raw: ConfigFile,
  missing: boolean,
  env: NodeJS.ProcessEnv,
  fromEnvironment: DiscoveredModel | undefined,
): HacConfig {
  const models = raw.models.map((entry, index) => resolveModel(entry, index, raw, env));
  if (!models.length && fromEnvironment) {
    const { name, provider, baseUrl, apiKey, contextWindow } = fromEnvironment;
    const entry = {
      name,
      provider,
      baseUrl,
      ...(apiKey && { apiKey }),
      contextWindow,
      active: true,
    } as ModelEntry;
    models.push({ ...resolveModel(entry, -1, raw, env), fromEnvironment: true });
  }
  const activeModel = models.find((m) => m.active);
  const summaryModel = raw.summaryModel
    ? models.find((m) => m.label === raw.summaryModel || m.id === raw.summaryModel)
    : activeModel;
  return {
    file,
    missing,
    logLevel: raw.logLevel,
    toolCallMode: raw.toolCallMode,
    markdown: raw.markdown,
    screenReader: raw.screenReader,
    models,
    activeModel,
    contextMaxChars: raw.contextMaxChars,
    minRecentMessages: raw.minRecentMessages,
    toolOutputMaxChars: raw.toolOutputMaxChars,
    maxToolRounds: raw.maxToolRounds,
    confirmDestructiveTools: raw.confirmDestructiveTools,
    allowedTools: { tools: raw.allowedTools, digests: raw.allowedToolDigests },
    summarize: raw.summarize,
    summaryModel,
    askUserTool: raw.askUserTool,
    memory: raw.memory,
    memoryShare: raw.memoryShare,
    toolShare: raw.toolShare,
    fallbackModels: raw.fallbackModels.flatMap((name) => {
      const model = models.find((m) => m.label === name || m.id === name);
      return model ? [model] : [];
    }),
  };
}

function resolveModel(
  entry: ModelEntry,
  index: number,
  raw: ConfigFile,
  env: NodeJS.ProcessEnv,
): ModelConfig {
  // The schema guarantees one of the two; `model` is the API id, `name` the label.
  const id = (entry.model ?? entry.name) as string;
  return {
    index,
    id,
    label: entry.name ?? id,
    provider: entry.provider,
    apiKey: entry.apiKey,
    baseUrl: (entry.baseUrl ?? defaultBaseUrl(entry.provider, env)).replace(/\/+$/, ''),
    think: entry.think,
    toolMode: entry.toolMode ?? (entry.provider === 'ollama' ? 'prompt' : 'native'),
    contextWindow: entry.contextWindow,
    vision: entry.vision ?? knownVision(entry.provider, id),
    maxTokens: entry.maxTokens,
    extraBody: entry.extraBody,
    active: entry.active === true,
    firstByteTimeoutMs: raw.firstByteTimeoutMs ?? (entry.provider === 'ollama' ? 120_000 : 20_000),
    idleTimeoutMs: raw.idleTimeoutMs,
  };
}

/**
 * The API key to send: `${VAR}` read from the environment, else the literal key, else the provider's variable
 * (`ANTHROPIC_API_KEY` for Anthropic, `OPENAI_API_KEY` otherwise).
 */
export function resolveApiKey(model: ModelConfig, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const written = model.apiKey?.trim();
  if (written) {
    const variable = envReferenceName(written);
    return variable ? env[variable] || undefined : written;
  }
  return env[defaultKeyVariable(model.provider)] || undefined;
}

/** Why no key can be sent for `model`: the variable it names (or the provider's) is unset, and where else it may go. */
export function missingKeyText(model: ModelConfig, configFile: string): string {
  const variable = envReferenceName(model.apiKey) ?? defaultKeyVariable(model.provider);
  return `${variable} is not set: set it in hac's environment, or give the key as "apiKey" of "${model.label}" in ${configFile}`;
}

/** The environment variable a provider's key is read from when config.json names none. */
export function defaultKeyVariable(provider: Provider): string {
  return provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
}

/** `OPENAI_API_KEY` for an apiKey written as `${OPENAI_API_KEY}`; undefined for a literal key. */
export function envReferenceName(written: string | undefined): string | undefined {
  return written ? /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(written.trim())?.[1] : undefined;
}
