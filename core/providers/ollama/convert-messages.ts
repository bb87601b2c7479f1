import type { Message as OllamaMessage, Tool as OllamaTool } from 'ollama';
import type { Message, MessageImage } from '../../types/message.js';
import type { NativeToolSpec } from '../chat-model.js';
import { convertMessages, toFunctionTools } from '../convert-messages.js';

/**
 * Our messages as Ollama `/api/chat` messages: tool results as `{role: 'tool', content, tool_name}`. Within a
 * turn that calls tools, an assistant message carries the model's thinking back in `thinking`: gpt-oss's harmony
 * format asks for the analysis of a message that ends in a tool call to come back with it (Ollama's template
 * renders it), and it is dropped after the turn's answer (the engine keeps it within the turn only).
 */
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
      ...(message.reasoning ? { thinking: message.reasoning } : {}),
      tool_calls: message.toolCalls.map((call) => ({
        function: { name: call.name, arguments: call.arguments },
      })),
    }),
    // A call in prompt mode is in the text: the message has no tool_calls, but its thinking still comes back.
    assistantWithReasoning: (message) => ({
      role: 'assistant',
      content: message.content,
      thinking: message.reasoning,
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
