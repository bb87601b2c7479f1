import { listedContextWindow, type ListedModel } from '../../config/discovered-model.js';
import type { Logger } from '../../logging/logger.js';
import { httpFetch } from '../http-fetch.js';

/**
 * The models an Anthropic account may use (`GET /v1/models`), for `/set-model`, with their context window where
 * the list says it. Never throws: when
 * nothing answers within `timeoutMs` (default 3 s), or the key is refused, it returns [] (logged at debug).
 */
export async function listAnthropicModels(
  baseUrl: string,
  key: string,
  options: { logger?: Logger; timeoutMs?: number } = {},
): Promise<ListedModel[]> {
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
    const models: ListedModel[] = [];
    for await (const model of sdk.models.list({ limit: 100 })) {
      const contextWindow = listedContextWindow(model);
      models.push({ name: model.id, ...(contextWindow && { contextWindow }) });
    }
    return models;
  } catch (error) {
    options.logger?.debug(
      `No model list from ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return [];
  }
}
