import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Message } from '../../types/message.js';
import type { NativeToolSpec } from '../chat-model.js';

/**
 * Our messages as Chat Completions messages. Native tool results (with `toolCallId`) go as role `tool`. Chat Completions
 * rejects a `tool` message without `tool_call_id`, so a prompt-mode tool result is sent as a `user` message that
 * names the tool.
 */
export function toOpenAIMessages(
  messages: Message[],
  options: { reasoningPassBack?: boolean } = {},
): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          content: message.content || null,
          // DeepSeek's thinking mode rejects a follow-up without it (R-STREAM-2); others get no unknown field.
          ...(options.reasoningPassBack && message.reasoning ? { reasoning_content: message.reasoning } : {}),
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        };
      case 'tool':
        if (message.toolCallId)
          return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
        return {
          role: 'user',
          content: `Result of ${message.toolName ?? 'the tool call'}:\n${message.content}`,
        };
    }
  });
}

/** Native tools in the Chat Completions `tools` shape. */
export function toOpenAITools(tools: NativeToolSpec[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
