/** What is known per model family, so the adapter asks a table instead of scattering vendor checks. */
export interface ModelRules {
  /** Whether the model takes `temperature` (OpenAI's reasoning models take only the default). */
  temperature: boolean;
  /** Whether the thinking of a message with tool calls goes back in that turn's follow-ups. */
  reasoningPassBack: boolean;
}

const DEFAULT_RULES: ModelRules = { temperature: true, reasoningPassBack: false };

/** Families by model id (an optional `vendor/` prefix, as OpenRouter writes them, is allowed). */
const FAMILIES: { pattern: RegExp; rules: Partial<ModelRules> }[] = [
  // o1, o3, o4-mini…, gpt-5, gpt-5-mini, gpt-5-nano (but gpt-5-chat-latest takes a temperature).
  { pattern: /^(?:[\w.-]+\/)?(?:o\d(?:$|[-.])|gpt-5(?!-chat)(?:$|[-.]))/i, rules: { temperature: false } },
  // deepseek-reasoner, deepseek-chat in thinking mode, deepseek-v3.x (also behind OpenRouter as deepseek/…).
  { pattern: /^(?:[\w.-]+\/)?deepseek/i, rules: { reasoningPassBack: true } },
];

export function modelRules(modelId: string): ModelRules {
  const family = FAMILIES.find((f) => f.pattern.test(modelId));
  return { ...DEFAULT_RULES, ...family?.rules };
}

/** A 400 that rejects the temperature (`Unsupported value: 'temperature' does not support 0.1 …`). */
export function rejectsTemperature(status: number | undefined, message: string, param?: unknown): boolean {
  return status === 400 && (param === 'temperature' || /\btemperature\b/i.test(message));
}
