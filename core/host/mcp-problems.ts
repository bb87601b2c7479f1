import type { Runtime } from './runtime.js';

/** One MCP problem line, as a host shows it. */
export interface McpProblem {
  server?: string;
  text: string;
  /** Good news rather than a problem: a sign-in finished. */
  ok?: boolean;
}

/**
 * Reports each MCP problem once: a broken mcp-servers.json, each server that fails (once per try) or needs
 * sign-in; and a server that was waiting for a sign-in and is now connected.
 * Watches the pool until `stop()`; `check()` also runs on demand (at start).
 */
export function watchMcpProblems(
  runtime: Pick<Runtime, 'mcpServers' | 'onMcpChange'>,
  report: (problem: McpProblem) => void,
): { check(): Promise<void>; stop(): void } {
  const shown = new Set<string>();
  /** Servers reported as needing sign-in, until they connect. */
  const signingIn = new Set<string>();
  const check = async (): Promise<void> => {
    const { servers, error } = await runtime.mcpServers(true);
    if (error && !shown.has('')) {
      shown.add('');
      const rest = servers.length
        ? 'Those servers are left out; the others start. See /mcp.'
        : 'hac runs without MCP tools; see /mcp.';
      report({ text: `${error.message}\n${rest}` });
    }
    for (const s of servers) {
      // A new try (a second `/mcp login`, a pasted sign-in) that fails again is said again.
      if (s.state === 'connecting') shown.delete(s.name);
      if (s.state === 'failed' && !shown.has(s.name)) {
        shown.add(s.name);
        report({
          server: s.name,
          text: `MCP server "${s.name}" failed: ${s.reason ?? 'unknown error'} (see /mcp)`,
        });
      }
      if (s.state === 'needs-sign-in' && !signingIn.has(s.name)) {
        signingIn.add(s.name);
        report({ server: s.name, text: `MCP server "${s.name}" needs sign-in: /mcp login ${s.name}` });
      }
      if (s.state === 'connected' && signingIn.delete(s.name)) {
        shown.delete(s.name);
        const tools = `${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`;
        report({
          server: s.name,
          ok: true,
          text: `MCP server "${s.name}" is signed in and connected (${tools}).`,
        });
      }
    }
  };
  const stop = runtime.onMcpChange(() => void check());
  return { check, stop };
}
