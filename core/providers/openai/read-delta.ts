/** What one streamed delta carries for the answer and for the thinking. */
export interface DeltaText {
  text: string;
  reasoning: string;
}

/**
 * The answer text and the thinking of a delta, whatever shape the server uses: `content` as a string (OpenAI),
 * `reasoning_content` (DeepSeek, vLLM, llama.cpp) or `reasoning` (OpenRouter, Ollama's /v1), or `content` as an
 * array of parts (Mistral's reasoning models: `{type: "text"}` and `{type: "thinking", thinking: [parts]}`).
 * Anything else is ignored: never printed as `[object Object]`, never a crash.
 */
export function readDelta(delta: Record<string, unknown> | undefined): DeltaText {
  if (!delta) return { text: '', reasoning: '' };
  const out: DeltaText = { text: '', reasoning: '' };
  if (typeof delta.reasoning_content === 'string') out.reasoning += delta.reasoning_content;
  else if (typeof delta.reasoning === 'string') out.reasoning += delta.reasoning;
  const content = delta.content;
  if (typeof content === 'string') out.text += content;
  else if (Array.isArray(content)) {
    for (const part of content as unknown[]) {
      if (!part || typeof part !== 'object') continue;
      const { type, text, thinking } = part as { type?: unknown; text?: unknown; thinking?: unknown };
      if (type === 'text' && typeof text === 'string') out.text += text;
      else if (type === 'thinking') out.reasoning += partsText(thinking);
    }
  }
  return out;
}

function partsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value
    .map((p: unknown) =>
      p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
        ? (p as { text: string }).text
        : '',
    )
    .join('');
}
