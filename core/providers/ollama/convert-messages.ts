import type { Message as OllamaMessage, Tool as OllamaTool } from 'ollama';
import type { Message } from '../../types/message.js';
import type { NativeToolSpec } from '../chat-model.js';

/** Our messages as Ollama `/api/chat` messages: tool results as `{role: 'tool', content, tool_name}` (R-LOOP-4). */
export function toOllamaMessages(messages: Message[]): OllamaMessage[] {
  return messages.map((message): OllamaMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          content: message.content,
          tool_calls: message.toolCalls.map((call) => ({
            function: { name: call.name, arguments: call.arguments },
          })),
        };
      case 'tool':
        return {
          role: 'tool',
          content: message.content,
          ...(message.toolName ? { tool_name: message.toolName } : {}),
        };
    }
  });
}

/** Native tools in Ollama's `tools` shape (only ever sent for native-mode models, R-TOOL-1). */
export function toOllamaTools(tools: NativeToolSpec[]): OllamaTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
