import {
  ASK_USER_DESCRIPTION,
  ASK_USER_INPUT_SCHEMA,
  ASK_USER_SERVER,
  ASK_USER_TOOL_NAME,
} from '../prompt/ask-user-spec.js';
import type { Tool, ToolResult } from './tool.js';

/** How the engine puts a question to whoever is at the keyboard; resolves with the raw reply. */
export type AskUser = (
  question: string,
  options: string[] | undefined,
  signal: AbortSignal,
) => Promise<string>;

/** The built-in `ask_user` tool: a free-text question, or a choice from 2–10 options. */
export function createAskUserTool(ask: AskUser): Tool {
  return {
    server: ASK_USER_SERVER,
    name: ASK_USER_TOOL_NAME,
    description: ASK_USER_DESCRIPTION,
    inputSchema: structuredClone(ASK_USER_INPUT_SCHEMA),
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
