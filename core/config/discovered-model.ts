/**
 * A model found on a server (installed on Ollama, or offered to an Anthropic account) but not in config.json, or
 * one a key in the environment reaches (a first run).
 */
export interface DiscoveredModel {
  name: string;
  provider: 'ollama' | 'anthropic' | 'openai';
  baseUrl: string;
  /** The key as written in the entry the model was found through (Anthropic, OpenAI-compatible servers). */
  apiKey?: string;
  /** The model's context window in tokens, when the server's model list says it. */
  contextWindow?: number;
}

/** A model as a server lists it: its id, and its context window in tokens when the list says it. */
export interface ListedModel {
  name: string;
  contextWindow?: number;
}

/**
 * The context window an entry of a model list states, under the names servers use: `context_length` (OpenRouter,
 * LM Studio, llama.cpp), `max_model_len` (vLLM), `context_window` (Groq), `max_input_tokens` (Anthropic, LiteLLM).
 */
export function listedContextWindow(entry: unknown): number | undefined {
  const fields = entry as Record<string, unknown> | null;
  for (const key of ['context_length', 'max_model_len', 'context_window', 'max_input_tokens']) {
    const value = fields?.[key];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  }
  return undefined;
}
