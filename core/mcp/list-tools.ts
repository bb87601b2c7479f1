import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ToolAnnotations } from '../tools/tool.js';

/** A tool as a server listed it: the schema keeps the server's key order. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

// The SDK's own ListToolsResultSchema rebuilds inputSchema with `type` first; records keep the order the server sent.
const toolsPage = z.looseObject({
  tools: z.array(z.record(z.string(), z.unknown())),
  nextCursor: z.string().optional(),
});

/** Every tool of a server, following `nextCursor`, in the server's order. */
export async function listAllTools(client: Client): Promise<McpToolInfo[]> {
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
  return tools;
}

function toToolInfo(raw: Record<string, unknown>): McpToolInfo {
  return {
    name: raw.name as string,
    description: typeof raw.description === 'string' ? raw.description : '',
    inputSchema: isObject(raw.inputSchema) ? raw.inputSchema : { type: 'object' },
    annotations: isObject(raw.annotations) ? raw.annotations : {},
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
