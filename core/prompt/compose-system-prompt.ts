import { builtinServerSpec } from './ask-user-spec.js';
import { currentDateLine } from './date-line.js';
import { FUNCTION_CALL_BLOCK } from './function-call-block.js';
import { hasAnyTool, renderFunctionsBlock } from './functions-block.js';
import type { PromptServerSpec } from './prompt-tools.js';

/** Everything the system message depends on, as plain data. */
export interface SystemPromptInput {
  /** The content of system_prompt.txt; trimmed here, empty means no base prompt. */
  basePrompt: string;
  /** The moment of the call; only its local date in `timeZone` is used. */
  now: Date;
  /** IANA zone name, e.g. `Asia/Seoul` (see `localTimeZone()`); an unknown name falls back to UTC. */
  timeZone: string;
  /** Set only when context trimming removed the user message that started the turn. */
  lastUserQuery?: string;
  /** `prompt` adds the FUNCTIONS and FUNCTION_CALL blocks; `native` sends tools through the API instead. */
  toolMode: 'prompt' | 'native';
  /** Connected MCP servers in configuration order, each with its tools in the server's order. */
  servers: readonly PromptServerSpec[];
  /** Lists the built-in ask_user tool as `## hac` after every MCP server; default true. */
  askUserTool?: boolean;
  /** Lists the built-in remember tool there too; default false. */
  rememberTool?: boolean;
  /** The project's instructions (AGENTS.md files, or their summary) and the user's memory.md, as read. */
  memory?: { workspace?: string; personal?: string };
}

/** The headings that tell the model where each memory comes from. */
const WORKSPACE_HEADING = 'Workspace memory (project instructions from AGENTS.md files, the nearest last):';
const PERSONAL_HEADING = 'Personal memory (what the user asked you to remember):';

/**
 * The system message of an LLM call, its parts joined by a blank line: the base prompt, the date, workspace
 * memory, personal memory, the last user query, the tools.
 */
export function composeSystemPrompt(input: SystemPromptInput): string {
  const parts: string[] = [];
  const base = input.basePrompt.trim();
  if (base !== '') parts.push(base);
  parts.push(currentDateLine(input.now, input.timeZone));
  const { workspace, personal } = input.memory ?? {};
  if (workspace?.trim()) parts.push(`${WORKSPACE_HEADING}\n${workspace.trim()}`);
  if (personal?.trim()) parts.push(`${PERSONAL_HEADING}\n${personal.trim()}`);
  if (input.lastUserQuery !== undefined) parts.push(`Last user query: ${input.lastUserQuery}`);
  if (input.toolMode === 'prompt') {
    const servers = promptServers(input.servers, input.askUserTool ?? true, input.rememberTool ?? false);
    parts.push(renderFunctionsBlock(servers));
    if (hasAnyTool(servers)) parts.push(FUNCTION_CALL_BLOCK);
  }
  return parts.join('\n\n');
}

/** The servers a prompt-mode model sees: the MCP servers, then `hac` with the built-ins that are on. */
export function promptServers(
  servers: readonly PromptServerSpec[],
  askUserTool: boolean,
  rememberTool = false,
): PromptServerSpec[] {
  return askUserTool || rememberTool
    ? [...servers, builtinServerSpec(askUserTool, rememberTool)]
    : [...servers];
}
