import { firstLine } from '../text/first-line.js';
import type { CommandContext, CommandOutput, McpServerView } from './command-types.js';

/** One line per tool in `/mcp`: its name and the start of its description, whatever the server sent. */
const TOOL_NAME_CHARS = 60;
const TOOL_LINE_CHARS = 120;

/** `/mcp`, `/mcp login <server> [address]`, `/mcp logout <server>`. */
export async function mcpCommand(ctx: CommandContext, arg: string): Promise<CommandOutput> {
  const [action = '', name = '', ...rest] = arg.trim().split(/\s+/);
  if (action === '') return mcpList(ctx);
  if (action !== 'login' && action !== 'logout') return { lines: [MCP_USAGE] };
  const { servers } = await ctx.mcpServers();
  const server = servers.find((s) => s.name === name);
  if (!name || !server)
    return { lines: [name ? `No MCP server named "${name}" in mcp-servers.json.` : MCP_USAGE] };
  if (!server.remote) return { lines: [`"${name}" is a local server: it needs no sign-in.`] };
  if (action === 'logout') {
    const forgot = await ctx.mcpSignOut(name);
    return {
      lines: [forgot ? `Signed out of "${name}": its tokens are forgotten.` : `"${name}" had no sign-in.`],
    };
  }
  const pasted = rest.join(' ');
  if (pasted) {
    await ctx.mcpPasteSignIn(name, pasted);
    return { lines: [`Sign-in for "${name}" received; connecting…`] };
  }
  const failed = (error: unknown) => ({
    lines: [`Sign-in to "${name}" failed: ${error instanceof Error ? error.message : String(error)}`],
  });
  let url: string | undefined;
  try {
    const signIn = await ctx.mcpSignIn(name);
    url = signIn.url;
    if (!url) await signIn.done;
  } catch (error) {
    return failed(error);
  }
  if (!url) return { lines: [`MCP server "${name}" is connected.`] };
  return {
    lines: [
      `Sign in to "${name}" in your browser:`,
      url,
      `If the browser cannot reach this machine (SSH, another computer), paste the address it ends on: /mcp login ${name} <address>`,
    ],
    openLink: url,
  };
}

const MCP_USAGE = 'Usage: /mcp, /mcp login <server> [address], /mcp logout <server>';

/** `/mcp`: every server with its status, description and functions; disabled ones as disabled. */
async function mcpList(ctx: CommandContext): Promise<CommandOutput> {
  const { servers, error, file } = await ctx.mcpServers();
  const lines: string[] = [];
  if (error) lines.push(error.message, '');
  if (servers.length === 0 && !error) lines.push(`No MCP servers configured in ${file}.`);
  for (const s of servers) {
    const state = serverState(s, '/mcp login');
    lines.push(`${s.name}: ${state}${s.description ? ` — ${s.description}` : ''}`);
    if (s.enabled && s.revision) lines.push(`  protocol revision ${s.revision}`);
    const extras = [
      s.prompts ? `${s.prompts} prompt${s.prompts === 1 ? '' : 's'} (/prompts)` : '',
      s.resources ? `${s.resources} resource${s.resources === 1 ? '' : 's'} (/resources)` : '',
    ].filter(Boolean);
    if (s.enabled && extras.length) lines.push(`  ${extras.join(', ')}`);
    if (s.enabled && s.state === 'failed' && s.stderrTail.length) {
      lines.push('  last stderr lines:', ...s.stderrTail.map((l) => `    ${l}`));
    }
    for (const t of s.tools) {
      const name = firstLine(t.name, TOOL_NAME_CHARS);
      lines.push(`  - ${name}: ${firstLine(t.description, TOOL_LINE_CHARS - name.length)}`);
    }
  }
  const limits = await ctx.toolLimitLines();
  if (limits.length) lines.push('', ...limits);
  return { lines };
}

/** `/toggle-mcp`: flip one server's `enabled` in mcp-servers.json and connect or disconnect it. */
export async function toggleMcpCommand(ctx: CommandContext): Promise<CommandOutput> {
  const { servers, error } = await ctx.mcpServers();
  // An invalid entry is named, and the valid servers can still be switched (the file is edited in place).
  if (error && servers.length === 0) return { lines: [error.message] };
  if (servers.length === 0) return { lines: ['No MCP servers configured in mcp-servers.json.'] };
  const choices = servers.map((s) => `${s.name}: ${s.enabled ? 'enabled' : 'disabled'}`);
  return {
    lines: [
      ...(error ? [error.message, ''] : []),
      'MCP servers found in mcp-servers.json:',
      ...choices.map((choice, i) => `  ${i + 1}) ${choice}`),
    ],
    question: {
      prompt: 'Choose the MCP server to enable/disable (0 to cancel): ',
      choices,
      async answer(reply) {
        const text = reply.trim();
        if (text === '' || text === '0') return { lines: ['Toggle cancelled.'] };
        const server = /^\d+$/.test(text) ? servers[Number(text) - 1] : undefined;
        if (!server) return { lines: ['Invalid selection.'] };
        await ctx.setMcpEnabled(server.name, !server.enabled);
        return { lines: [`Server "${server.name}" is now ${server.enabled ? 'disabled' : 'enabled'}.`] };
      },
    },
  };
}

/** A server's state in a word or a line: why it failed, or how to sign in (`login` is the command that does). */
export function serverState(server: McpServerView, login: string): string {
  if (!server.enabled) return 'disabled';
  if (server.state === 'failed') return `failed: ${server.reason ?? 'unknown error'}`;
  if (server.state === 'needs-sign-in') return `needs sign-in (${login} ${server.name})`;
  return server.state;
}
