import type { Message as OllamaMessage, Tool as OllamaTool } from 'ollama';
import type { Message, MessageImage } from '../../types/message.js';
import type { NativeToolSpec } from '../chat-model.js';
import { convertMessages, toFunctionTools } from '../convert-messages.js';

/** Our messages as Ollama `/api/chat` messages: tool results as `{role: 'tool', content, tool_name}`. */
export function toOllamaMessages(messages: Message[]): OllamaMessage[] {
  return convertMessages<OllamaMessage>(messages, {
    userWithImages: (message) => ({
      role: 'user',
      content: message.content,
      images: base64Of(message.images),
    }),
    assistantWithCalls: (message) => ({
      role: 'assistant',
      content: message.content,
      tool_calls: message.toolCalls.map((call) => ({
        function: { name: call.name, arguments: call.arguments },
      })),
    }),
    toolResult: (message) => ({
      role: 'tool',
      content: message.content,
      ...(message.toolName ? { tool_name: message.toolName } : {}),
      ...(message.images?.length ? { images: base64Of(message.images) } : {}),
    }),
  });
}

/** Ollama takes a message's pictures as base64 strings in `images`. */
function base64Of(images: MessageImage[]): string[] {
  return images.map((image) => image.data ?? '');
}

/** Native tools in Ollama's `tools` shape (only ever sent for native-mode models). */
export function toOllamaTools(tools: NativeToolSpec[]): OllamaTool[] {
  return toFunctionTools(tools);
}
