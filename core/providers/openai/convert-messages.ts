import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import type { Message, MessageImage } from '../../types/message.js';
import type { NativeToolSpec } from '../chat-model.js';
import { convertMessages, imageDataUrl, toFunctionTools } from '../convert-messages.js';

/**
 * Our messages as Chat Completions messages. Native tool results (with `toolCallId`) go as role `tool`. Chat
 * Completions rejects a `tool` message without `tool_call_id`, so a prompt-mode tool result is sent as a `user`
 * message that names the tool.
 */
export function toOpenAIMessages(
  messages: Message[],
  options: { reasoningPassBack?: boolean } = {},
): ChatCompletionMessageParam[] {
  const converted = convertMessages<ChatCompletionMessageParam>(messages, {
    userWithImages: (message) => ({ role: 'user', content: withImages(message.content, message.images) }),
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
        : {
            role: 'user',
            content: withImages(
              `Result of ${message.toolName ?? 'the tool call'}:\n${message.content}`,
              message.images ?? [],
            ),
          },
  });
  return withToolImages(messages, converted);
}

/** Text and pictures as Chat Completions content parts (text alone stays a plain string). */
function withImages(text: string, images: MessageImage[]): ChatCompletionUserMessageParam['content'] {
  if (!images.length) return text;
  return [
    ...(text ? [{ type: 'text' as const, text }] : []),
    ...images.map((image) => ({ type: 'image_url' as const, image_url: { url: imageDataUrl(image) } })),
  ];
}

/**
 * Tool messages hold text only in Chat Completions: the pictures of a round's native tool results go in one user
 * message right after the last of them.
 */
function withToolImages(
  messages: Message[],
  converted: ChatCompletionMessageParam[],
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let pending: MessageImage[] = [];
  messages.forEach((message, i) => {
    out.push(converted[i]!);
    if (message.role === 'tool' && message.toolCallId) pending.push(...(message.images ?? []));
    const next = messages[i + 1];
    if (pending.length && !(next?.role === 'tool' && next.toolCallId)) {
      out.push({ role: 'user', content: withImages('Images from the tool results above:', pending) });
      pending = [];
    }
  });
  return out;
}

/** Native tools in the Chat Completions `tools` shape. */
export function toOpenAITools(tools: NativeToolSpec[]): ChatCompletionTool[] {
  return toFunctionTools(tools);
}
