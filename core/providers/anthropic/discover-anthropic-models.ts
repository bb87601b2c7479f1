import type { DiscoveredModel } from '../../config/discovered-model.js';
import type { Logger } from '../../logging/logger.js';
import { resolveApiKey, type HacConfig } from '../../config/load-config.js';

/**
 * Claude models the configured Anthropic accounts may use but config.json does not list (listed by `/set-model`).
 * A model added from here copies the key as written in the entry it was found through (`${VAR}` stays a reference).
 */
export async function discoverAnthropic(
  config: HacConfig,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<DiscoveredModel[]> {
  const entries = config.models.filter((m) => m.provider === 'anthropic');
  if (!entries.length) return [];
  const { listAnthropicModels } = await import('./list-anthropic-models.js');
  const accounts = new Map<string, { baseUrl: string; key: string; apiKey?: string }>();
  for (const m of entries) {
    const key = resolveApiKey(m, env);
    if (key) accounts.set(`${m.baseUrl} ${key}`, { baseUrl: m.baseUrl, key, apiKey: m.apiKey });
  }
  const configured = new Set(entries.map((m) => m.id));
  const found = await Promise.all(
    [...accounts.values()].map(async ({ baseUrl, key, apiKey }) =>
      (await listAnthropicModels(baseUrl, key, { logger })).map((name): DiscoveredModel => ({
        name,
        provider: 'anthropic',
        baseUrl,
        ...(apiKey ? { apiKey } : {}),
      })),
    ),
  );
  const seen = new Set<string>();
  return found.flat().filter((d) => {
    if (configured.has(d.name) || seen.has(d.name)) return false;
    seen.add(d.name);
    return true;
  });
}
