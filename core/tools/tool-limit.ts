import type { Tool } from './tool.js';

/**
 * A provider's limit on tools per request: whole servers are offered in mcp-servers.json order until
 * the next one would not fit; the servers left out are named. `reserved` counts hac's own tools (ask_user).
 */
export function fitToolsToLimit(
  tools: readonly Tool[],
  limit: number | undefined,
  reserved = 0,
): { offered: Tool[]; leftOut: string[] } {
  if (limit === undefined || tools.length + reserved <= limit) return { offered: [...tools], leftOut: [] };
  const byServer = new Map<string, Tool[]>();
  for (const tool of tools) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  const offered: Tool[] = [];
  const leftOut: string[] = [];
  for (const [server, serverTools] of byServer) {
    if (offered.length + serverTools.length + reserved <= limit) offered.push(...serverTools);
    else leftOut.push(server);
  }
  return { offered, leftOut };
}

/** The one line that says what was left out and how to choose. */
export function toolLimitNotice(model: string, limit: number, leftOut: readonly string[]): string {
  const names = leftOut.map((s) => `"${s}"`).join(', ');
  return `${model} takes at most ${limit} tools: the tools of ${names} are not offered. Use /toggle-mcp to choose the servers.`;
}
