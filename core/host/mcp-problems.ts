import type { Runtime } from './runtime.js';

/** One MCP problem line, as a host shows it. */
export interface McpProblem {
  server?: string;
  text: string;
}

/**
 * Reports each MCP problem once: a broken mcp-servers.json and each server that fails.
 * Watches the pool until `stop()`; `check()` also runs on demand (at start).
 */
export function watchMcpProblems(
  runtime: Pick<Runtime, 'mcpServers' | 'onMcpChange'>,
  report: (problem: McpProblem) => void,
): { check(): Promise<void>; stop(): void } {
  const shown = new Set<string>();
  const check = async (): Promise<void> => {
    const { servers, error } = await runtime.mcpServers();
    if (error && !shown.has('')) {
      shown.add('');
      report({ text: `${error.message}\nhac runs without MCP tools; see /mcp.` });
    }
    for (const s of servers) {
      if (s.state === 'failed' && !shown.has(s.name)) {
        shown.add(s.name);
        report({
          server: s.name,
          text: `MCP server "${s.name}" failed: ${s.reason ?? 'unknown error'} (see /mcp)`,
        });
      }
    }
  };
  const stop = runtime.onMcpChange(() => void check());
  return { check, stop };
}
