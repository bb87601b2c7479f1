import type { Logger } from '../../logging/logger.js';
import { httpFetch } from '../http-fetch.js';

/**
 * The model ids an Anthropic account may use (`GET /v1/models`), for `/set-model`. Never throws: when
 * nothing answers within `timeoutMs` (default 3 s), or the key is refused, it returns [] (logged at debug).
 */
export async function listAnthropicModels(
  baseUrl: string,
  key: string,
  options: { logger?: Logger; timeoutMs?: number } = {},
): Promise<string[]> {
  // Imported here so that importing this helper does not load the SDK.
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const sdk = new Anthropic({
    apiKey: null,
    authToken: null,
    defaultHeaders: { 'x-api-key': key },
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: options.timeoutMs ?? 3000,
    logLevel: 'off',
    fetch: httpFetch,
  });
  try {
    const ids: string[] = [];
    for await (const model of sdk.models.list({ limit: 100 })) ids.push(model.id);
    return ids;
  } catch (error) {
    options.logger?.debug(
      `No model list from ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return [];
  }
}
