import type { DiscoveredModel } from '../../config/discovered-model.js';
import type { Logger } from '../../logging/logger.js';
import { defaultBaseUrl, type HacConfig } from '../../config/load-config.js';

/** Installed Ollama models not in config.json; `llama3.2` in config matches `llama3.2:latest`. */
export async function discoverOllama(config: HacConfig, logger: Logger): Promise<DiscoveredModel[]> {
  const { listOllamaModels } = await import('./list-ollama-models.js');
  const urls = [
    ...new Set([
      defaultBaseUrl('ollama'),
      ...config.models.filter((m) => m.provider === 'ollama').map((m) => m.baseUrl),
    ]),
  ];
  const configured = new Set(
    config.models
      .filter((m) => m.provider === 'ollama')
      .flatMap((m) => [m.id, m.id.includes(':') ? m.id : `${m.id}:latest`]),
  );
  const found = await Promise.all(
    urls.map(async (baseUrl) =>
      (await listOllamaModels(baseUrl, { logger })).map((name): DiscoveredModel => ({
        name,
        provider: 'ollama',
        baseUrl,
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
