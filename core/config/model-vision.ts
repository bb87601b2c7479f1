/**
 * Models known not to take images, by id (an optional `vendor/` prefix, as OpenRouter writes them, is allowed):
 * a message with a picture gets one clear line instead of a request the server refuses. Unlisted models are
 * tried; config.json's `"vision": false` covers the rest, and a refusal the server sends says the same.
 */
const TEXT_ONLY: Record<'openai' | 'anthropic' | 'ollama', RegExp[]> = {
  openai: [
    /^(?:[\w.-]+\/)?gpt-3\.5/i,
    /^(?:[\w.-]+\/)?gpt-4(?:-\d{4}|-32k)?(?:-\d+)?$/i,
    /^(?:[\w.-]+\/)?o1-mini/i,
    /^(?:[\w.-]+\/)?o3-mini/i,
    /^(?:[\w.-]+\/)?deepseek/i,
  ],
  anthropic: [/^claude-3-5-haiku/i, /^claude-(?:instant|2)/i],
  // Ollama's families without a vision encoder; llava, qwen2.5-vl, gemma3, llama3.2-vision… are tried.
  ollama: [
    /^(?:llama3(?:\.[01])?|llama2|mistral|qwen2\.5(?!vl)(?!-vl)|qwen3|deepseek-r1|phi[34](?!-vision)|codellama)(?::|$)/i,
  ],
};

/** false when the model is known to take text only; undefined when nothing is known. */
export function knownVision(provider: 'openai' | 'anthropic' | 'ollama', modelId: string): false | undefined {
  return TEXT_ONLY[provider].some((pattern) => pattern.test(modelId)) ? false : undefined;
}
