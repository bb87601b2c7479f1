import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Message } from '../../types/message.js';
import type { NativeToolSpec } from '../chat-model.js';
import { convertMessages, toFunctionTools } from '../convert-messages.js';

/**
 * Our messages as Chat Completions messages. Native tool results (with `toolCallId`) go as role `tool`. Chat
 * Completions rejects a `tool` message without `tool_call_id`, so a prompt-mode tool result is sent as a `user`
 * message that names the tool.
 */
export function toOpenAIMessages(
  messages: Message[],
  options: { reasoningPassBack?: boolean } = {},
): ChatCompletionMessageParam[] {
  return convertMessages<ChatCompletionMessageParam>(messages, {
    assistantWithCalls: (message) => ({
      role: 'assistant',
      content: message.content || null,
      // DeepSeek's thinking mode rejects a follow-up without it; others get no unknown field.
      ...(options.reasoningPassBack && message.reasoning ? { reasoning_content: message.reasoning } : {}),
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      })),
    }),
    toolResult: (message) =>
      message.toolCallId
        ? { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
        : { role: 'user', content: `Result of ${message.toolName ?? 'the tool call'}:\n${message.content}` },
  });
}

/** Native tools in the Chat Completions `tools` shape. */
export function toOpenAITools(tools: NativeToolSpec[]): ChatCompletionTool[] {
  return toFunctionTools(tools);
}
