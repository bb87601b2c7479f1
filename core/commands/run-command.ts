import type { CommandContext, CommandOutput } from './command-types.js';
import { mcpCommand, toggleMcpCommand } from './mcp-commands.js';
import { resumeCommand, sessionsCommand } from './session-commands.js';
import { deleteCommand, exportCommand, renameCommand, rewindCommand } from './conversation-commands.js';
import { setModelCommand } from './set-model.js';
import { toolCommand } from './tool-command.js';
import { forgetCommand, memoryCommand, rememberCommand } from './memory-commands.js';
import { usageCommand } from './usage-command.js';
import { permissionsCommand } from './permissions-command.js';

/**
 * Every command with its one-line description, in the order /help lists them; each line fits an 80-column terminal
 * (a longer one breaks mid-word there), the details are in the README.
 */
export const COMMANDS: readonly { name: string; usage: string; description: string }[] = [
  { name: '/help', usage: '/help', description: 'Show the commands.' },
  { name: '/new', usage: '/new', description: 'Start a new session (clears the conversation).' },
  { name: '/set-model', usage: '/set-model', description: 'Choose the active model.' },
  {
    name: '/set-tool-mode',
    usage: '/set-tool-mode [auto|manual]',
    description: 'Ask before each tool call (manual) or not.',
  },
  {
    name: '/mcp',
    usage: '/mcp [login|logout <server>]',
    description: 'MCP servers and their tools; sign in or out.',
  },
  { name: '/toggle-mcp', usage: '/toggle-mcp', description: 'Enable or disable an MCP server.' },
  {
    name: '/permissions',
    usage: '/permissions [remove <n>]',
    description: 'Tools allowed without asking (A); remove one.',
  },
  { name: '/prompts', usage: '/prompts', description: "List the MCP servers' prompts." },
  {
    name: '/prompt',
    usage: '/prompt <server:name> [arg=value]',
    description: "Send an MCP server's prompt, filled in.",
  },
  {
    name: '/resources',
    usage: '/resources',
    description: 'MCP resources (attach one: @server:uri).',
  },
  {
    name: '/sessions',
    usage: '/sessions [words]',
    description: 'Recent sessions, or those with all the words.',
  },
  { name: '/resume', usage: '/resume [n]', description: 'Continue session n, or choose a recent one.' },
  { name: '/rename', usage: '/rename <title>', description: 'Give this session a title (its file follows).' },
  { name: '/delete', usage: '/delete <n>', description: 'Move session n to the trash (kept 30 days).' },
  {
    name: '/export',
    usage: '/export [md|json] [path]',
    description: 'Save this conversation as Markdown or JSON.',
  },
  { name: '/retry', usage: '/retry [model]', description: 'Ask again (with another model, if named).' },
  { name: '/edit', usage: '/edit', description: 'Take back your last message to edit it.' },
  { name: '/rewind', usage: '/rewind [n]', description: 'Take back the last n exchanges (1 by default).' },
  {
    name: '/remember',
    usage: '/remember <text>',
    description: 'Add a line to your memory (sent every time).',
  },
  {
    name: '/memory',
    usage: '/memory [restore]',
    description: 'Memory and AGENTS.md; restore: undo a summary.',
  },
  { name: '/forget', usage: '/forget <n>', description: 'Remove line n of your memory.' },
  { name: '/usage', usage: '/usage', description: 'Tokens used per turn and in this conversation.' },
  { name: '/tool', usage: '/tool [n]', description: 'The last tool results, or result n in full.' },
  { name: '/view', usage: '/view <n>', description: 'Show tool view n (MCP Apps) in your browser.' },
  {
    name: '/image',
    usage: '/image <path|https URL>',
    description: 'Attach a picture (or @file.png in a message).',
  },
  {
    name: '/compact',
    usage: '/compact',
    description: 'Summarise the conversation now (frees context).',
  },
  { name: '/exit', usage: '/exit', description: 'Close MCP sessions and exit.' },
];

/** Names people bring from other clients (Claude Code, codex, gemini-cli), each standing for hac's own. */
export const COMMAND_ALIASES: Readonly<Record<string, string>> = {
  '/clear': '/new',
  '/model': '/set-model',
  '/quit': '/exit',
  '/q': '/exit',
  '/cost': '/usage',
};

/** A command line with an alias's name replaced by hac's own (`/model` → `/set-model`); any other line as it was. */
export function canonicalCommand(line: string): string {
  const [name = '', ...rest] = line.trim().split(/(\s+)/);
  const own = COMMAND_ALIASES[name];
  return own ? [own, ...rest].join('') : line;
}

/** The command name nearest to a mistyped one (at most two edits away, or a name it starts), if any. */
export function nearestCommand(name: string): string | undefined {
  const names = [...COMMANDS.map((c) => c.name), ...Object.keys(COMMAND_ALIASES)];
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    const distance = editDistance(name, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name ?? names.find((n) => name.length > 2 && n.startsWith(name));
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit (`/modle` is one from `/model`). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

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
          '  Also: /clear (/new), /model (/set-model), /quit or /q (/exit), /cost (/usage)',
          ...(ctx.keys.length
            ? ['', 'Keys:', ...ctx.keys.map(([key, what]) => `  ${key.padEnd(30)} ${what}`)]
            : []),
        ],
      };
    case '/new':
      await ctx.newSession();
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
    default: {
      const near = nearestCommand(name);
      return {
        lines: [
          near
            ? `Unknown command: ${name}. Did you mean ${near}?`
            : `Unknown command: ${name}. Type /help for the list.`,
        ],
      };
    }
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
  return [...COMMANDS.map((c) => c.name), ...Object.keys(COMMAND_ALIASES)].filter((n) => n.startsWith(line));
}
