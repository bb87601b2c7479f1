import type { DiscoveredModel, ListedModel } from '../config/discovered-model.js';
import type { Logger } from '../logging/logger.js';
import { resolveApiKey, type HacConfig } from '../config/load-config.js';

/**
 * Models that the configured Anthropic accounts and OpenAI-compatible servers (OpenAI, LiteLLM, vLLM, LM Studio…)
 * offer but config.json does not list, for `/set-model`. A model added from here copies the key as written in the
 * entry it was found through (`${VAR}` stays a reference) and the context window the server's list states.
 */
export async function discoverAccountModels(
  config: HacConfig,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<DiscoveredModel[]> {
  const found = await Promise.all(
    (['anthropic', 'openai'] as const).map((provider) => discoverFor(provider, config, env, logger)),
  );
  return found.flat();
}

async function discoverFor(
  provider: 'anthropic' | 'openai',
  config: HacConfig,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<DiscoveredModel[]> {
  const entries = config.models.filter((m) => m.provider === provider && !m.fromEnvironment);
  if (!entries.length) return [];
  const list: (baseUrl: string, key: string) => Promise<ListedModel[]> =
    provider === 'anthropic'
      ? async (baseUrl, key) =>
          (await import('./anthropic/list-anthropic-models.js')).listAnthropicModels(baseUrl, key, { logger })
      : async (baseUrl, key) =>
          (await import('./openai/list-openai-models.js')).listOpenAIModels(baseUrl, key, { logger });
  const accounts = new Map<string, { baseUrl: string; key: string; apiKey?: string }>();
  for (const m of entries) {
    const key = resolveApiKey(m, env);
    if (key) accounts.set(`${m.baseUrl} ${key}`, { baseUrl: m.baseUrl, key, apiKey: m.apiKey });
  }
  const configured = new Set(entries.map((m) => m.id));
  const lists = await Promise.all(
    [...accounts.values()].map(async ({ baseUrl, key, apiKey }) =>
      (await list(baseUrl, key)).map(({ name, contextWindow }): DiscoveredModel => ({
        name,
        provider,
        baseUrl,
        ...(apiKey && { apiKey }),
        ...(contextWindow && { contextWindow }),
      })),
    ),
  );
  const seen = new Set<string>();
  return lists.flat().filter((d) => {
    if (configured.has(d.name) || seen.has(d.name)) return false;
    seen.add(d.name);
    return true;
  });
}
