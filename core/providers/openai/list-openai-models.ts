import { listedContextWindow, type ListedModel } from '../../config/discovered-model.js';
import type { Logger } from '../../logging/logger.js';
import { httpFetch } from '../http-fetch.js';

/** Models of an OpenAI account that are not for chat (embeddings, speech, pictures, moderation, old completions). */
const NOT_CHAT =
  /embed|tts|whisper|dall-e|moderation|davinci|babbage|audio|realtime|transcribe|image|search|sora/i;

/**
 * The chat models an OpenAI-compatible server offers (`GET /models`): OpenAI's own, or a LiteLLM, vLLM, LM Studio
 * or llama.cpp server's, whose names no guess would get right, with the context window where the list says it
 * (OpenRouter, vLLM, LM Studio and others do; OpenAI does not). Never throws: when nothing answers within
 * `timeoutMs` (default 1.5 s), or the key is refused, it returns [] (logged at debug).
 */
export async function listOpenAIModels(
  baseUrl: string,
  key: string,
  options: { logger?: Logger; timeoutMs?: number } = {},
): Promise<ListedModel[]> {
  // Imported here so that importing this helper does not load the SDK.
  const { default: OpenAI } = await import('openai');
  const sdk = new OpenAI({
    apiKey: key,
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: options.timeoutMs ?? 1500,
    logLevel: 'off',
    fetch: httpFetch,
  });
  try {
    const models: ListedModel[] = [];
    for await (const model of sdk.models.list()) {
      if (NOT_CHAT.test(model.id)) continue;
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
