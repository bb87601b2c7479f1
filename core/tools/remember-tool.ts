import {
  ASK_USER_SERVER,
  REMEMBER_DESCRIPTION,
  REMEMBER_INPUT_SCHEMA,
  REMEMBER_TOOL_NAME,
} from '../prompt/ask-user-spec.js';
import type { Tool, ToolResult } from './tool.js';

/**
 * The built-in `remember` tool (`hac__remember`): the model offers a fact for the user's personal memory. It is a
 * tool call like any other, shown and, in manual mode, approved with Y/N before anything is written.
 */
export function createRememberTool(remember: (fact: string) => Promise<string>): Tool {
  return {
    server: ASK_USER_SERVER,
    name: REMEMBER_TOOL_NAME,
    description: REMEMBER_DESCRIPTION,
    inputSchema: structuredClone(REMEMBER_INPUT_SCHEMA),
    annotations: {},
    async call(args): Promise<ToolResult> {
      const fact = typeof args.fact === 'string' ? args.fact.trim() : '';
      if (!fact) return { isError: true, text: 'remember needs a non-empty "fact" string.' };
      try {
        return { isError: false, text: `Remembered: ${await remember(fact)}` };
      } catch (error) {
        return { isError: true, text: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
