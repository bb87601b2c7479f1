import { existsSync } from 'node:fs';
import { DEFAULT_BASE_URL } from '../config/load-config.js';
import type { DiscoveredModel } from '../config/discovered-model.js';
import type { Logger } from '../logging/logger.js';

/** The model offered for a key found in the environment (the same as the example config.json names). */
const KEYED_MODELS: { variable: string; model: DiscoveredModel }[] = [
  {
    variable: 'OPENAI_API_KEY',
    model: {
      name: 'gpt-4o',
      provider: 'openai',
      baseUrl: DEFAULT_BASE_URL.openai,
      apiKey: '${OPENAI_API_KEY}',
    },
  },
  {
    variable: 'ANTHROPIC_API_KEY',
    model: {
      name: 'claude-sonnet-4-6',
      provider: 'anthropic',
      baseUrl: DEFAULT_BASE_URL.anthropic,
      apiKey: '${ANTHROPIC_API_KEY}',
    },
  },
];

/** How many of an Ollama server's models are offered. */
const OLLAMA_OFFERED = 5;

/**
 * What a first run can be set up with, when there is no config.json yet: a key in the environment (written into
 * config.json as `${VAR}`, never the key itself), or the models of an Ollama server answering on its default
 * address. Empty when config.json exists or nothing is within reach. Each with the line that offers it.
 */
export async function firstRunChoices(
  configFile: string,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<{ model: DiscoveredModel; label: string }[]> {
  if (existsSync(configFile)) return [];
  const keyed = KEYED_MODELS.filter(({ variable }) => env[variable]?.trim()).map(({ variable, model }) => ({
    model,
    label: `${model.provider}: ${model.name} (key from $${variable})`,
  }));
  const { listOllamaModels } = await import('../providers/ollama/list-ollama-models.js');
  const local = await listOllamaModels(DEFAULT_BASE_URL.ollama, { logger, timeoutMs: 500 }).catch(() => []);
  const ollama = local.slice(0, OLLAMA_OFFERED).map((name) => ({
    model: { name, provider: 'ollama' as const, baseUrl: DEFAULT_BASE_URL.ollama },
    label: `ollama: ${name} (on ${DEFAULT_BASE_URL.ollama})`,
  }));
  return [...keyed, ...ollama];
}
