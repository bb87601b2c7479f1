// Builders for the ModelConfig and stream collection that provider tests (and later engine tests) need.
import type { ModelConfig } from '../../core/config/load-config.js';
import type { ChatStreamPart } from '../../core/types/chat-stream.js';

/** A resolved model entry pointing at a fake; timeouts default to values that never fire in a test. */
export function fakeModelConfig(
  provider: 'openai' | 'ollama' | 'anthropic',
  baseUrl: string,
  overrides: Partial<ModelConfig> = {},
): ModelConfig {
  const id = { openai: 'gpt-4o', ollama: 'llama3.2', anthropic: 'claude-sonnet-4-6' }[provider];
  return {
    index: 0,
    id,
    label: id,
    provider,
    apiKey: { openai: 'sk-test-1234567890abcd', ollama: undefined, anthropic: 'sk-ant-test-123456' }[
      provider
    ],
    baseUrl,
    toolMode: provider === 'ollama' ? 'prompt' : 'native',
    active: true,
    firstByteTimeoutMs: 10_000,
    idleTimeoutMs: 10_000,
    ...overrides,
  };
}

/** Everything a stream produced, and the error it ended with (if any). */
export interface Collected<P = ChatStreamPart> {
  parts: P[];
  text: string;
  reasoning: string;
  error: unknown;
}

/** Drains a stream; never throws (the error is returned). */
export async function collect<P extends { type: string }>(stream: AsyncIterable<P>): Promise<Collected<P>> {
  const parts: P[] = [];
  let error: unknown;
  try {
    for await (const part of stream) parts.push(part);
  } catch (e) {
    error = e;
  }
  const join = (type: string) =>
    parts
      .filter((p) => p.type === type)
      .map((p) => (p as unknown as { text: string }).text)
      .join('');
  return { parts, text: join('text-delta'), reasoning: join('reasoning-delta'), error };
}
