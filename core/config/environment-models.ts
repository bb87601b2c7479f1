import { existsSync } from 'node:fs';
import type { Logger } from '../logging/logger.js';
import type { DiscoveredModel } from './discovered-model.js';
import { defaultBaseUrl } from './load-config.js';

/** A model the environment alone reaches, and where it was found (for the line that offers or names it). */
export interface EnvironmentModel {
  model: DiscoveredModel;
  /** `key from $OPENAI_API_KEY`, `on http://127.0.0.1:11434`. */
  source: string;
}

/** The names guessed when a server does not say what it has: the vendors' everyday models. */
const GUESS = { openai: 'gpt-4o', anthropic: 'claude-sonnet-4-6' } as const;

/** How many models of each place are offered. */
const OFFERED = 5;

/**
 * What the environment alone gives, in order: the models an OpenAI-compatible server offers with OPENAI_API_KEY
 * (at OPENAI_BASE_URL), Anthropic's with ANTHROPIC_API_KEY, then those installed on Ollama (OLLAMA_HOST, or this
 * machine). Each server is asked what it has (a short timeout); a name is guessed only when it does not answer.
 * Keys are referred to as `${VAR}`, never copied.
 */
export async function environmentModels(env: NodeJS.ProcessEnv, logger: Logger): Promise<EnvironmentModel[]> {
  const keyed = async (provider: 'openai' | 'anthropic', variable: string) => {
    const key = env[variable]?.trim();
    if (!key) return [];
    const baseUrl = defaultBaseUrl(provider, env);
    const listed =
      provider === 'openai'
        ? await (
            await import('../providers/openai/list-openai-models.js')
          ).listOpenAIModels(baseUrl, key, { logger })
        : await (
            await import('../providers/anthropic/list-anthropic-models.js')
          ).listAnthropicModels(baseUrl, key, { logger, timeoutMs: 1500 });
    const guess = GUESS[provider];
    // The everyday model first where the server has it; what the server has, never a guess, where it answered.
    const ordered = listed.length
      ? [...listed].sort((a, b) => Number(b.name === guess) - Number(a.name === guess))
      : [{ name: guess }];
    return ordered.slice(0, OFFERED).map(({ name, contextWindow }): EnvironmentModel => ({
      model: { name, provider, baseUrl, apiKey: `\${${variable}}`, ...(contextWindow && { contextWindow }) },
      source: `key from $${variable}${baseUrl === defaultBaseUrl(provider, {}) ? '' : ` at ${baseUrl}`}`,
    }));
  };
  const ollama = async () => {
    const baseUrl = defaultBaseUrl('ollama', env);
    const { listOllamaModels } = await import('../providers/ollama/list-ollama-models.js');
    const names = await listOllamaModels(baseUrl, { logger, timeoutMs: 500 }).catch(() => []);
    return names.slice(0, OFFERED).map((name): EnvironmentModel => ({
      model: { name, provider: 'ollama', baseUrl },
      source: `on ${baseUrl}`,
    }));
  };
  const found = await Promise.all([
    keyed('openai', 'OPENAI_API_KEY'),
    keyed('anthropic', 'ANTHROPIC_API_KEY'),
    ollama(),
  ]);
  return found.flat();
}

/**
 * What a first run can be set up with, when there is no config.json yet: what the environment reaches (keys,
 * written into config.json as `${VAR}`, never the key itself, with the models their server says it has; an Ollama
 * server's models). Empty when config.json exists or nothing is within reach. Each with the line that offers it.
 * `search` asks the servers: only when there is no config.json (a start with one never waits for them, nor asks a
 * vendor's server anything the user did not).
 */
export async function firstRunChoices(
  configFile: string,
  search: () => Promise<EnvironmentModel[]>,
): Promise<{ model: DiscoveredModel; label: string }[]> {
  if (existsSync(configFile)) return [];
  return (await search()).map(({ model, source }) => ({
    model,
    label: `${model.provider}: ${model.name} (${source})`,
  }));
}
