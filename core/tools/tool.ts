import type { ElicitationAnswer, ElicitationRequest } from '../types/elicitation.js';

/** MCP tool annotations we act on; the rest are kept as they came. */
export interface ToolAnnotations {
  destructiveHint?: boolean;
  readOnlyHint?: boolean;
  [key: string]: unknown;
}

/** What a tool call produced, as text for the model (before the engine's length cut). */
export interface ToolResult {
  text: string;
  isError: boolean;
  /** Pictures the tool returned (MCP `image` content), base64 as sent; the text has a line for each. */
  images?: ToolImage[];
  /** The tool has a view (MCP Apps): what a host shows it from. */
  view?: ToolViewResult;
}

/** A call's view: its server's `ui://` resource, and the call's whole result (the view reads more than the text). */
export interface ToolViewResult {
  resourceUri: string;
  result: Record<string, unknown>;
}

/** A picture as a tool returned it. */
export interface ToolImage {
  data: string;
  mimeType: string;
}

/** What a tool may do while it runs besides its work: ask the user what its server asks (MCP elicitation). */
export interface ToolCallContext {
  elicit?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
  /** What a long call reports as it goes: how far (of how much, where the server knows) and what it is doing. */
  onProgress?: (progress: ToolProgress) => void;
}

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Anything the model may call: an MCP server's tool or a built-in one such as ask_user. */
export interface Tool {
  /** The MCP server's name (`hac` for built-ins). */
  server: string;
  /** The server's description from mcp-servers.json, shown in the call summary. */
  serverDescription?: string;
  name: string;
  description: string;
  /** JSON Schema of the arguments, key order as the server sent it. */
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  call(args: Record<string, unknown>, signal: AbortSignal, context?: ToolCallContext): Promise<ToolResult>;
}

/** Where the engine gets MCP tools: the pool, or nothing when no server is configured. */
export interface ToolSource {
  isReady(): boolean;
  /**
   * Settles when every server has connected or failed (bounded by the connect timeout) and lists a server
   * said changed have been read again (bounded too).
   */
  ready(): Promise<void>;
  tools(): Tool[];
}
