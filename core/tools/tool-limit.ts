import type { Tool } from './tool.js';

/**
 * What the tools of one request may take: a provider's limit on their number, and a size of definitions, in tokens
 * when the model's context window is known, else in characters.
 */
export interface ToolBounds {
  maxTools?: number;
  maxSize: number;
  unit: 'characters' | 'tokens';
  /** What `maxSize` is a share of, as the line that says so names it. */
  shareOf: string;
  /** A definition's size in `unit`. */
  size(definition: string): number;
}

/** The tools offered, and the servers left out because of the count limit or of the size limit. */
export interface FittedTools {
  offered: Tool[];
  overCount: string[];
  overSize: { server: string; size: number }[];
}

/** A tool's definition as a request carries it: name, description and input schema. */
function definition(tool: Tool): string {
  return JSON.stringify({ name: tool.name, description: tool.description, schema: tool.inputSchema });
}

/**
 * The tools one request offers: whole servers, in mcp-servers.json order, until the next would break a bound,
 * so a server whose lists are huge (a thousand tools, or descriptions of 200 KB) costs nothing but a line.
 * `reserved` counts hac's own tools (ask_user, remember) against the count limit.
 */
export function fitTools(tools: readonly Tool[], bounds: ToolBounds, reserved = 0): FittedTools {
  const byServer = new Map<string, Tool[]>();
  for (const tool of tools) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  const fitted: FittedTools = { offered: [], overCount: [], overSize: [] };
  let taken = 0;
  for (const [server, serverTools] of byServer) {
    const size = serverTools.reduce((n, t) => n + bounds.size(definition(t)), 0);
    if (
      bounds.maxTools !== undefined &&
      fitted.offered.length + serverTools.length + reserved > bounds.maxTools
    )
      fitted.overCount.push(server);
    else if (taken + size > bounds.maxSize) fitted.overSize.push({ server, size });
    else {
      fitted.offered.push(...serverTools);
      taken += size;
    }
  }
  return fitted;
}

/** The lines that say what was left out and how to choose (none when everything fits). */
export function fittedToolsNotice(model: string, bounds: ToolBounds, fitted: FittedTools): string[] {
  const count = (n: number) => n.toLocaleString('en-US');
  const lines: string[] = [];
  if (fitted.overCount.length)
    lines.push(
      `${model} takes at most ${bounds.maxTools} tools: the tools of ${names(fitted.overCount)} are not offered. Use /toggle-mcp to choose the servers.`,
    );
  if (fitted.overSize.length) {
    const sizes = fitted.overSize.map((s) => `"${s.server}" (${count(s.size)} ${bounds.unit})`).join(', ');
    lines.push(
      `Tool definitions may take ${count(bounds.maxSize)} ${bounds.unit} of a request (toolShare of ${bounds.shareOf}): the tools of ${sizes} are not offered. Use /toggle-mcp to choose the servers.`,
    );
  }
  return lines;
}

function names(servers: readonly string[]): string {
  return servers.map((s) => `"${s}"`).join(', ');
}
