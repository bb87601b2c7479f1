import type { Message, MessageImage } from '../types/message.js';
import type { NativeToolSpec } from './chat-model.js';
import { harmonyAsWritten } from './think-tags.js';

type AssistantMessage = Extract<Message, { role: 'assistant' }>;
type ToolMessage = Extract<Message, { role: 'tool' }>;
type UserMessage = Extract<Message, { role: 'user' }>;

/** A message every vendor takes as it is: system, user, or assistant text without tool calls. */
export interface PlainMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What a vendor does its own way when our messages are converted: tool calls, their results, pictures. */
export interface ToolMessageShapes<T> {
  /** A user message that carries pictures. */
  userWithImages(message: UserMessage & { images: MessageImage[] }): T;
  assistantWithCalls(
    message: AssistantMessage & { toolCalls: NonNullable<AssistantMessage['toolCalls']> },
  ): T;
  toolResult(message: ToolMessage): T;
  /** An assistant message without tool calls that carries its reasoning within the turn (where sent back). */
  assistantWithReasoning?(message: AssistantMessage & { reasoning: string }): T;
}

/** Our messages in a vendor's shape: the plain ones as they are, the tool ones as `shapes` says. */
export function convertMessages<T>(messages: Message[], shapes: ToolMessageShapes<T>): (PlainMessage | T)[] {
  return messages.map((message) => {
    if (message.role === 'tool') return shapes.toolResult(message);
    if (message.role === 'user' && message.images?.length)
      return shapes.userWithImages({ ...message, images: message.images });
    if (message.role === 'assistant' && message.toolCalls?.length)
      return shapes.assistantWithCalls({ ...message, toolCalls: message.toolCalls });
    // A call written in harmony tokens goes back whole, its analysis included, as any server can read it.
    const written =
      message.role === 'assistant' &&
      message.reasoning &&
      harmonyAsWritten(message.reasoning, message.content);
    if (written) return { role: 'assistant', content: written };
    if (message.role === 'assistant' && message.reasoning && shapes.assistantWithReasoning)
      return shapes.assistantWithReasoning({ ...message, reasoning: message.reasoning });
    return { role: message.role, content: message.content };
  });
}

/** Native tools as `{type: 'function', function: {name, description, parameters}}`: OpenAI's and Ollama's shape. */
export function toFunctionTools(tools: NativeToolSpec[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** An image as a `data:` URL (OpenAI's `image_url`). */
export function imageDataUrl(image: MessageImage): string {
  return `data:${image.mediaType};base64,${image.data ?? ''}`;
}
