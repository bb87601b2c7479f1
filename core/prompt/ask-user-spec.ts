import type { PromptServerSpec, PromptToolSpec } from './prompt-tools.js';

/** Server name of hac's built-in tools. */
export const ASK_USER_SERVER = 'hac';

/** Tool name of the built-in question tool. */
export const ASK_USER_TOOL_NAME = 'ask_user';

/** The model-facing description of ask_user, shared by the FUNCTIONS block and the native tool list. */
export const ASK_USER_DESCRIPTION =
  'Ask the user a question and wait for the answer. Give "options" (2 to 10 short choices) when the user should pick one of them; leave it out for a free-text answer. Use it when you need information only the user has; the tool results gathered so far are kept.';

/** The JSON Schema of ask_user's arguments: `{"question": string, "options"?: string[2..10]}`. */
export const ASK_USER_INPUT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    question: {
      type: 'string',
      description: 'The question to show the user.',
    },
    options: {
      type: 'array',
      items: { type: 'string' },
      minItems: 2,
      maxItems: 10,
      description: 'Choices the user picks one of. Leave out for a free-text answer.',
    },
  },
  required: ['question'],
  additionalProperties: false,
};

/** ask_user as a prompt tool. A fresh copy each time, so no caller can change the shared schema. */
export function askUserToolSpec(): PromptToolSpec {
  return {
    name: ASK_USER_TOOL_NAME,
    description: ASK_USER_DESCRIPTION,
    inputSchema: structuredClone(ASK_USER_INPUT_SCHEMA),
  };
}

/** The `## hac` section of the FUNCTIONS block, listed after every MCP server. */
export function askUserServerSpec(): PromptServerSpec {
  return { name: ASK_USER_SERVER, description: 'hac built-in tools', tools: [askUserToolSpec()] };
}
