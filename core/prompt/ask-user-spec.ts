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

/** Tool name of the built-in tool that adds a fact to the user's personal memory (`hac__remember` natively). */
export const REMEMBER_TOOL_NAME = 'remember';

export const REMEMBER_DESCRIPTION =
  "Add one short fact to the user's personal memory (memory.md), which is sent with every later conversation. Use it when the user asks you to remember something, or tells you a lasting preference; the user approves each one.";

export const REMEMBER_INPUT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: { fact: { type: 'string', description: 'The fact, in one short line.' } },
  required: ['fact'],
  additionalProperties: false,
};

/** The `## hac` section of the FUNCTIONS block, listed after every MCP server: the built-ins that are on. */
export function builtinServerSpec(askUser: boolean, remember: boolean): PromptServerSpec {
  const tools = askUser ? [askUserToolSpec()] : [];
  if (remember)
    tools.push({
      name: REMEMBER_TOOL_NAME,
      description: REMEMBER_DESCRIPTION,
      inputSchema: structuredClone(REMEMBER_INPUT_SCHEMA),
    });
  return { name: ASK_USER_SERVER, description: 'hac built-in tools', tools };
}
