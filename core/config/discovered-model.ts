/**
 * A model found on a server (installed on Ollama, or offered to an Anthropic account) but not in config.json, or
 * one a key in the environment reaches (a first run).
 */
export interface DiscoveredModel {
  name: string;
  provider: 'ollama' | 'anthropic' | 'openai';
  baseUrl: string;
  /** The key as written in the entry the model was found through (Anthropic). */
  apiKey?: string;
}
