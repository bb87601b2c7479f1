import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { Logger } from '../logging/logger.js';
import type { ToolAnnotations } from '../tools/tool.js';
import { toolViewLink, type ToolViewLink, type ToolVisibility } from './app-views.js';
import { withTimeout } from './timing.js';
import { headerMarkProblem } from './x-mcp-header.js';

/** A tool as a server listed it: the schema keeps the server's key order. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  /** Who may call it: the model, its server's views (MCP Apps), or both. */
  visibility: ToolVisibility[];
  /** The view its results are shown in, where it has one. */
  view?: ToolViewLink;
}

// The SDK's own ListToolsResultSchema rebuilds inputSchema with `type` first; records keep the order the server sent.
const toolsPage = z.looseObject({
  tools: z.array(z.record(z.string(), z.unknown())),
  nextCursor: z.string().optional(),
});

/** Who is listed: the server as configured, and how long its answers may take. */
interface ListedServer {
  name: string;
  transport: string;
  logger: Logger;
  connectTimeoutMs: number;
}

/**
 * Every tool of a server, following `nextCursor`, in the server's order. Over HTTP in the stateless revision a
 * tool whose `x-mcp-header` marks are invalid is left out, named in the log.
 */
export async function listAllTools(client: Client, server: ListedServer): Promise<McpToolInfo[]> {
  const seconds = server.connectTimeoutMs / 1000;
  const listing = listPages(client, server);
  return withTimeout(listing, server.connectTimeoutMs, `tools/list got no answer within ${seconds} s`);
}

async function listPages(client: Client, server: ListedServer): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      toolsPage,
    );
    for (const raw of page.tools) {
      if (typeof raw.name === 'string') tools.push(toToolInfo(raw));
    }
    cursor = page.nextCursor;
  } while (cursor);
  if (server.transport !== 'http' || client.getProtocolEra() !== 'modern') return tools;
  return tools.filter((tool) => {
    const problem = headerMarkProblem(tool.inputSchema);
    if (problem)
      server.logger.warn(
        `MCP server "${server.name}": tool "${tool.name}" left out: ${problem} (x-mcp-header).`,
      );
    return !problem;
  });
}

function toToolInfo(raw: Record<string, unknown>): McpToolInfo {
  const { view, visibility } = toolViewLink(raw._meta);
  return {
    name: raw.name as string,
    description: typeof raw.description === 'string' ? raw.description : '',
    inputSchema: isObject(raw.inputSchema) ? raw.inputSchema : { type: 'object' },
    annotations: isObject(raw.annotations) ? raw.annotations : {},
    visibility,
    ...(view ? { view } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
