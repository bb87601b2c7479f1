import type { ModelConfig } from '../config/load-config.js';
import type { Logger } from '../logging/logger.js';

/** Timer functions the stream watchdog uses; tests may inject their own. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

/** Real timers. */
export const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

/** What every adapter is built from. */
export interface ChatModelOptions {
  model: ModelConfig;
  /** Path of config.json: auth errors tell the user to fix the apiKey there. */
  configFile: string;
  logger: Logger;
  /** Where `${VAR}` keys and OPENAI_API_KEY are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  timers?: Timers;
  /**
   * Debug-log each request's body, and each response as assembled text, reasoning and tool calls. Default true; pass
   * `logLevel === 'debug'` so that at other levels a long answer is not kept twice (the engine keeps it anyway).
   */
  logResponses?: boolean;
  /**
   * Extra request-body fields for OpenAI-compatible servers, e.g. `{ "top_k": 20 }` for vLLM or
   * `{ "thinking": { "type": "enabled" } }` for Z.AI. They cannot override model, messages, stream or temperature.
   */
  extraBody?: Record<string, unknown>;
}
