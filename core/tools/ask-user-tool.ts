import { BUILTIN_SERVER } from './approval.js';
import type { Tool, ToolResult } from './tool.js';

/** How the engine puts a question to whoever is at the keyboard; resolves with the raw reply. */
export type AskUser = (
  question: string,
  options: string[] | undefined,
  signal: AbortSignal,
) => Promise<string>;

export const ASK_USER_DESCRIPTION =
  'Ask the user a question and wait for the answer. Use it when you need information or a decision only the user can give, instead of guessing. Give "options" (2 to 10 short choices) when the answer is one of a few choices.';

/** ask_user's input schema (R-FN-3), key order as listed to the model. */
export const ASK_USER_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    question: { type: 'string', description: 'The question to ask the user.' },
    options: {
      type: 'array',
      items: { type: 'string' },
      minItems: 2,
      maxItems: 10,
      description: 'Optional choices; the user picks one.',
    },
  },
  required: ['question'],
  additionalProperties: false,
};

/** The built-in `ask_user` tool (R-FN-3): a free-text question, or a choice from 2–10 options. */
export function createAskUserTool(ask: AskUser): Tool {
  return {
    server: BUILTIN_SERVER,
    name: 'ask_user',
    description: ASK_USER_DESCRIPTION,
    inputSchema: ASK_USER_SCHEMA,
    annotations: { readOnlyHint: true },
    async call(args, signal): Promise<ToolResult> {
      const question = typeof args.question === 'string' ? args.question.trim() : '';
      if (!question) return { isError: true, text: 'ask_user needs a non-empty "question" string.' };
      const options = args.options;
      if (options !== undefined && !isOptionList(options)) {
        return { isError: true, text: 'ask_user "options" must be a list of 2 to 10 strings.' };
      }
      let reply: string;
      try {
        reply = (await ask(question, options, signal)).trim();
      } catch {
        return { isError: true, text: 'The user cancelled the question.' };
      }
      if (!reply) return { isError: true, text: 'The user gave no answer.' };
      if (options) {
        const picked = pickOption(reply, options);
        return picked === undefined
          ? { isError: true, text: `The user's answer "${reply}" is not one of the options.` }
          : { isError: false, text: `User selected: ${picked}` };
      }
      return { isError: false, text: `User answered: ${reply}` };
    },
  };
}

function isOptionList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length >= 2 &&
    value.length <= 10 &&
    value.every((v) => typeof v === 'string')
  );
}

/** A reply to a choice: the option's number, or the option's text (case-insensitive). */
export function pickOption(reply: string, options: string[]): string | undefined {
  if (/^\d+$/.test(reply)) return options[Number(reply) - 1];
  return options.find((o) => o.toLowerCase() === reply.toLowerCase());
}
