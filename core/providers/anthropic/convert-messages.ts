import type { ImageBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Message, MessageImage } from '../../types/message.js';
import type { NativeToolSpec } from '../chat-model.js';

type Block = Exclude<MessageParam['content'], string>[number];

/** Our tool errors start so (tool-output.ts); Anthropic wants them flagged `is_error`. */
const TOOL_ERROR = /^Error: /;

/**
 * Our messages as the Messages API wants them: system text as the top-level `system`, no system role;
 * an assistant's tool calls as `tool_use` blocks after its signed thinking (sent back unchanged); the results of one
 * assistant message as `tool_result` blocks of ONE user message, first in it; messages of the same role merged,
 * since the roles must alternate. A prompt-mode tool result (no call id) is user text naming the tool.
 */
export function toAnthropicMessages(messages: Message[]): { system?: string; messages: MessageParam[] } {
  const system: string[] = [];
  const out: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const add = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (!blocks.length) return;
    const last = out.at(-1);
    if (last?.role !== role) return void out.push({ role, content: blocks });
    // Tool results open a user message; text said after them follows.
    const results = blocks.filter((b) => b.type === 'tool_result');
    const others = blocks.filter((b) => b.type !== 'tool_result');
    last.content = [
      ...last.content.filter((b) => b.type === 'tool_result'),
      ...results,
      ...last.content.filter((b) => b.type !== 'tool_result'),
      ...others,
    ];
  };
  const text = (t: string): Block[] => (t.trim() ? [{ type: 'text', text: t }] : []);
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        add('user', [...text(message.content), ...imageBlocks(message.images)]);
        break;
      case 'assistant':
        add('assistant', [
          ...((message.toolCalls?.length ? (message.replay ?? []) : []) as Block[]),
          ...text(message.content),
          ...(message.toolCalls ?? []).map((call): Block => ({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: call.arguments,
          })),
        ]);
        break;
      case 'tool':
        add(
          'user',
          message.toolCallId
            ? [
                {
                  type: 'tool_result',
                  tool_use_id: message.toolCallId,
                  content: message.images?.length
                    ? [
                        ...(message.content.trim() ? [{ type: 'text' as const, text: message.content }] : []),
                        ...imageBlocks(message.images),
                      ]
                    : message.content,
                  ...(TOOL_ERROR.test(message.content) ? { is_error: true } : {}),
                },
              ]
            : [
                ...text(`Result of ${message.toolName ?? 'the tool call'}:\n${message.content}`),
                ...imageBlocks(message.images),
              ],
        );
        break;
    }
  }
  return { ...(system.length ? { system: system.join('\n\n') } : {}), messages: out };
}

/** Pictures as `image` blocks with a base64 source. */
function imageBlocks(images: MessageImage[] | undefined): ImageBlockParam[] {
  return (images ?? []).map((image) => ({
    type: 'image',
    source: { type: 'base64', media_type: image.mediaType, data: image.data ?? '' },
  }));
}

/** Native tools in the Messages API shape. */
export function toAnthropicTools(tools: NativeToolSpec[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.parameters },
  }));
}
