import type { Logger } from '../../logging/logger.js';
import { defaultBaseUrl } from '../../config/load-config.js';
import { plainFetch } from '../http-fetch.js';

/**
 * The models installed on an Ollama server (`GET /api/tags`), for `/set-model` discovery. Never throws:
 * when nothing answers within `timeoutMs` (default 1 s), or anything else goes wrong, it returns [] (logged at debug).
 */
export async function listOllamaModels(
  baseUrl: string = defaultBaseUrl('ollama'),
  options: { logger?: Logger; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<string[]> {
  const signals = [
    AbortSignal.timeout(options.timeoutMs ?? 1000),
    ...(options.signal ? [options.signal] : []),
  ];
  const signal = AbortSignal.any(signals);
  // Imported here so that importing this helper does not load the SDK.
  const { Ollama } = await import('ollama');
  const sdk = new Ollama({
    host: baseUrl,
    fetch: async (input, init) => {
      const response = await plainFetch(input, { ...init, signal });
      // Throw before the SDK reads an error body (it would console.log a non-JSON one).
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new Error(`HTTP ${response.status}`);
      }
      return response.asResponse();
    },
  });
  try {
    const list = await sdk.list();
    return list.models.map((m) => m.name).filter((name): name is string => typeof name === 'string');
  } catch (error) {
    options.logger?.debug(
      `No Ollama model list from ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return [];
  }
}
