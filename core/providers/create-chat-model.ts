import type { ChatModel } from './chat-model.js';
import type { ChatModelOptions } from './chat-model-options.js';

/**
 * The adapter for a configured model. Each adapter (and so its SDK) is imported only when first needed, so starting
 * `hac` loads neither SDK and a session loads only the one it uses.
 */
export async function createChatModel(options: ChatModelOptions): Promise<ChatModel> {
  if (options.model.provider === 'openai') {
    const { OpenAIChatModel } = await import('./openai/openai-chat-model.js');
    return new OpenAIChatModel(options);
  }
  if (options.model.provider === 'anthropic') {
    const { AnthropicChatModel } = await import('./anthropic/anthropic-chat-model.js');
    return new AnthropicChatModel(options);
  }
  const { OllamaChatModel } = await import('./ollama/ollama-chat-model.js');
  return new OllamaChatModel(options);
}
