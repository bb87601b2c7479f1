import type { PromptServerSpec, PromptToolSpec } from './prompt-tools.js';

const HEADER = 'FUNCTIONS:\n\n# Connected MCP Servers';

/** The FUNCTIONS block text when no tool at all is available. */
export const NO_TOOL_FUNCTIONS_BLOCK = `${HEADER}\n\nNo MCP server is connected: no tool can be called.`;

/**
 * The FUNCTIONS block for the given servers, in the order given; servers without tools are left out.
 * With no tool at all it is {@link NO_TOOL_FUNCTIONS_BLOCK}.
 */
export function renderFunctionsBlock(servers: readonly PromptServerSpec[]): string {
  const sections = servers.filter((s) => s.tools.length > 0).map(renderServer);
  if (sections.length === 0) return NO_TOOL_FUNCTIONS_BLOCK;
  return [HEADER, ...sections].join('\n\n');
}

/** True when the servers offer at least one tool, i.e. when the FUNCTION_CALL block follows. */
export function hasAnyTool(servers: readonly PromptServerSpec[]): boolean {
  return servers.some((s) => s.tools.length > 0);
}

function renderServer(server: PromptServerSpec): string {
  const head = `## ${server.name}\nThese are tool name, description and input schema.`;
  return [head, ...server.tools.map(renderTool)].join('\n\n');
}

function renderTool(tool: PromptToolSpec): string {
  const description = indentContinuation(tool.description.trim());
  const title = description === '' ? `- **${tool.name}**:` : `- **${tool.name}**: ${description}`;
  const schema = schemaJson(tool.inputSchema)
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  return `${title}\n    Input Schema:\n${schema}`;
}

// A multi-line description stays inside its list item, so a heading in it cannot pass for a `## server`.
function indentContinuation(text: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 || line.trim() === '' ? line.trimEnd() : `    ${line.trimEnd()}`))
    .join('\n');
}

function schemaJson(schema: Record<string, unknown>): string {
  try {
    return JSON.stringify(schema, null, 2) ?? '{}';
  } catch {
    // A schema that is not JSON (a cycle, a BigInt) must not break the turn.
    return '{}';
  }
}
