import type { Hac } from '../core/index.js';

/**
 * Reports each MCP problem once, as one line: a broken mcp-servers.json (R-MCP-9) and each server that fails
 * (R-MCP-5). Watches the pool from now on; the returned check also runs on demand (at start).
 */
export function watchMcpProblems(hac: Hac, print: (line: string) => void): () => Promise<void> {
  const shown = new Set<string>();
  const check = async (): Promise<void> => {
    const { servers, error } = await hac.commands.mcpServers();
    if (error && !shown.has('')) {
      shown.add('');
      print(`${error.message}\nhac runs without MCP tools; see /mcp.`);
    }
    for (const s of servers) {
      if (s.state === 'failed' && !shown.has(s.name)) {
        shown.add(s.name);
        print(`MCP server "${s.name}" failed: ${s.reason ?? 'unknown error'} (see /mcp)`);
      }
    }
  };
  hac.onMcpChange(() => void check());
  return check;
}
