import type { CommandContext, CommandOutput } from './command-types.js';
import { mcpCommand, toggleMcpCommand } from './mcp-commands.js';
import { resumeCommand, sessionsCommand } from './session-commands.js';
import { deleteCommand, exportCommand, renameCommand, rewindCommand } from './conversation-commands.js';
import { setModelCommand } from './set-model.js';
import { toolCommand } from './tool-command.js';
import { forgetCommand, memoryCommand, rememberCommand } from './memory-commands.js';
import { usageCommand } from './usage-command.js';
import { permissionsCommand } from './permissions-command.js';

/** Every command with its one-line description, in the order /help lists them. */
export const COMMANDS: readonly { name: string; usage: string; description: string }[] = [
  { name: '/help', usage: '/help', description: 'Show the commands.' },
  { name: '/new', usage: '/new', description: 'Start a new session (clears the conversation).' },
  { name: '/set-model', usage: '/set-model', description: 'Choose the active model.' },
  {
    name: '/set-tool-mode',
    usage: '/set-tool-mode [auto|manual]',
    description: 'Ask before each tool call (manual) or not (auto).',
  },
  {
    name: '/mcp',
    usage: '/mcp [login|logout <server>]',
    description: 'Show MCP servers and their tools; sign in to a remote one, or forget its sign-in.',
  },
  { name: '/toggle-mcp', usage: '/toggle-mcp', description: 'Enable or disable an MCP server.' },
  {
    name: '/permissions',
    usage: '/permissions [remove <n>]',
    description: 'List the tools allowed without asking (A at the Y/N question); remove one.',
  },
  { name: '/prompts', usage: '/prompts', description: "List the MCP servers' prompts." },
  {
    name: '/prompt',
    usage: '/prompt <server:name> [arg=value]',
    description: "Send an MCP server's prompt, its arguments filled in.",
  },
  {
    name: '/resources',
    usage: '/resources',
    description: "List the MCP servers' resources (attach one with @server:uri in a message).",
  },
  {
    name: '/sessions',
    usage: '/sessions [words]',
    description: 'List recent sessions, or those holding all the words.',
  },
  {
    name: '/resume',
    usage: '/resume [n]',
    description: 'Continue session n of /sessions, or choose one of the latest.',
  },
  { name: '/rename', usage: '/rename <title>', description: 'Give this session a title (its file follows).' },
  {
    name: '/delete',
    usage: '/delete <n>',
    description: 'Move session n of /sessions to the trash (30 days).',
  },
  {
    name: '/export',
    usage: '/export [md|json] [path]',
    description: 'Write this conversation as Markdown or JSON (current folder by default).',
  },
  {
    name: '/retry',
    usage: '/retry [model]',
    description: 'Ask again for the last answer (with another configured model, if named).',
  },
  {
    name: '/edit',
    usage: '/edit',
    description: 'Take back your last message and put it in the prompt to change.',
  },
  { name: '/rewind', usage: '/rewind [n]', description: 'Take back the last n exchanges (1 by default).' },
  {
    name: '/remember',
    usage: '/remember <text>',
    description: 'Add a line to your memory (memory.md), sent with every request.',
  },
  {
    name: '/memory',
    usage: '/memory [restore]',
    description:
      'Show your memory and the AGENTS.md files in use; restore: undo the last summary of memory.md.',
  },
  { name: '/forget', usage: '/forget <n>', description: 'Remove line n of your memory.' },
  { name: '/usage', usage: '/usage', description: 'Show the tokens used per turn and in this conversation.' },
  { name: '/tool', usage: '/tool [n]', description: 'Show the last tool results, or result n in full.' },
  {
    name: '/image',
    usage: '/image <path|https URL>',
    description: 'Attach a picture to your next message (also @file.png in a message).',
  },
  { name: '/exit', usage: '/exit', description: 'Close MCP sessions and exit.' },
];

/** Whether a line is a command: starts with `/` but not `//` (which sends `/text` as a message). */
export function isCommand(line: string): boolean {
  return line.startsWith('/') && !line.startsWith('//');
}

/** Runs one command line. */
export async function runCommand(line: string, ctx: CommandContext): Promise<CommandOutput> {
  const [name = '', ...rest] = line.trim().split(/\s+/);
  const arg = rest.join(' ');
  switch (name) {
    case '/help':
      return {
        lines: [
          ...COMMANDS.map((c) => `  ${c.usage.padEnd(30)} ${c.description}`),
          ...(ctx.keys.length
            ? ['', 'Keys:', ...ctx.keys.map(([key, what]) => `  ${key.padEnd(30)} ${what}`)]
            : []),
        ],
      };
    case '/new':
      ctx.newSession();
      return { lines: ['Started a new session.'] };
    case '/set-model':
      return setModelCommand(ctx);
    case '/set-tool-mode':
      return setToolMode(ctx, arg);
    case '/mcp':
      return mcpCommand(ctx, arg);
    case '/toggle-mcp':
      return toggleMcpCommand(ctx);
    case '/permissions':
      return permissionsCommand(ctx, arg);
    case '/sessions':
      return sessionsCommand(ctx, arg);
    case '/resume':
      return resumeCommand(ctx, arg);
    case '/rename':
      return renameCommand(ctx, arg);
    case '/delete':
      return deleteCommand(ctx, arg);
    case '/export':
      return exportCommand(ctx, arg);
    case '/rewind':
      return rewindCommand(ctx, arg);
    case '/tool':
      return toolCommand(ctx, arg);
    case '/remember':
      return rememberCommand(ctx, arg);
    case '/memory':
      return memoryCommand(ctx, arg);
    case '/forget':
      return forgetCommand(ctx, arg);
    case '/usage':
      return usageCommand(ctx);
    case '/exit':
      return { lines: [], exit: true };
    default:
      return { lines: [`Unknown command: ${name}. Type /help for the list.`] };
  }
}

async function setToolMode(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  const mode = arg.trim().toLowerCase();
  if (!mode) {
    return {
      lines: [`Tool call mode is ${ctx.config().toolCallMode}.`, 'Usage: /set-tool-mode [auto|manual]'],
    };
  }
  if (mode !== 'auto' && mode !== 'manual') return { lines: ['Please enter either auto or manual.'] };
  await ctx.setToolCallMode(mode);
  return { lines: [`Tool call mode set to ${mode}.`] };
}

/** Tab completion: the command names that start with what was typed. */
export function completeCommand(line: string): string[] {
  if (!line.startsWith('/') || line.includes(' ')) return [];
  return COMMANDS.map((c) => c.name).filter((n) => n.startsWith(line));
}
