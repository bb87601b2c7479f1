import type { CommandContext, CommandOutput } from './command-types.js';

/** `/mcp`: every server with its status, description and functions; disabled ones as disabled. */
export async function mcpCommand(ctx: CommandContext): Promise<CommandOutput> {
  const { servers, error, file } = await ctx.mcpServers();
  const lines: string[] = [];
  if (error) lines.push(error.message, '');
  if (servers.length === 0 && !error) lines.push(`No MCP servers configured in ${file}.`);
  for (const s of servers) {
    const state = !s.enabled
      ? 'disabled'
      : s.state === 'failed'
        ? `failed: ${s.reason ?? 'unknown error'}`
        : s.state;
    lines.push(`${s.name}: ${state}${s.description ? ` — ${s.description}` : ''}`);
    if (s.enabled && s.state === 'failed' && s.stderrTail.length) {
      lines.push('  last stderr lines:', ...s.stderrTail.map((l) => `    ${l}`));
    }
    for (const t of s.tools) lines.push(`  - ${t.name}: ${t.description.split('\n')[0] ?? ''}`);
  }
  const limit = await ctx.toolLimitLine();
  if (limit) lines.push('', limit);
  return { lines };
}

/** `/toggle-mcp`: flip one server's `enabled` in mcp-servers.json and connect or disconnect it. */
export async function toggleMcpCommand(ctx: CommandContext): Promise<CommandOutput> {
  const { servers, error } = await ctx.mcpServers();
  if (error) return { lines: [error.message] };
  if (servers.length === 0) return { lines: ['No MCP servers configured in mcp-servers.json.'] };
  const choices = servers.map((s) => `${s.name}: ${s.enabled ? 'enabled' : 'disabled'}`);
  return {
    lines: ['MCP servers found in mcp-servers.json:', ...choices.map((choice, i) => `  ${i + 1}) ${choice}`)],
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
