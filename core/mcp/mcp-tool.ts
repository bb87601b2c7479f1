import type { Tool, ToolAnnotations, ToolCallContext, ToolResult } from '../tools/tool.js';
import type { McpToolInfo } from './list-tools.js';
import { McpPoolError } from './mcp-errors.js';

/** The part of the pool a tool needs: one call. */
export interface McpCaller {
  call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    context?: ToolCallContext,
  ): Promise<ToolResult>;
}

/**
 * An MCP server's tool seen through the `Tool` seam. Failures (session lost, timeout, unknown tool)
 * come back as `isError` results, as the model must see them; only a cancel throws.
 */
export class McpTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations: ToolAnnotations;

  constructor(
    private readonly pool: McpCaller,
    readonly server: string,
    /** The server's description from mcp-servers.json, for the call summary. */
    readonly serverDescription: string,
    info: McpToolInfo,
  ) {
    this.name = info.name;
    this.description = info.description;
    this.inputSchema = info.inputSchema;
    this.annotations = info.annotations;
  }

  async call(
    args: Record<string, unknown>,
    signal: AbortSignal,
    context?: ToolCallContext,
  ): Promise<ToolResult> {
    try {
      return await this.pool.call(this.server, this.name, args, signal, context);
    } catch (error) {
      if (signal.aborted || (error instanceof McpPoolError && error.code === 'cancelled')) throw error;
      return { text: error instanceof Error ? error.message : String(error), isError: true };
    }
  }
}
