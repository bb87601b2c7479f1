/** A tool as the prompt protocol sees it: plain data, so the prompt functions stay pure. */
export interface PromptToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments, key order as the server sent it. */
  inputSchema: Record<string, unknown>;
}

/** One server's tools in the order the server lists them. */
export interface PromptServerSpec {
  name: string;
  /** The server's own description (shown in call summaries; not part of the FUNCTIONS block). */
  description?: string;
  tools: readonly PromptToolSpec[];
}

/** What the parser needs to know about an available tool: where it lives and what it is called. */
export interface ToolRef {
  server: string;
  name: string;
}
