import type { ToolResult } from '../tools/tool.js';

/** The parts of an MCP `tools/call` result we read; anything else in it is ignored. */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  /** The pre-2025 result shape some servers still send. */
  toolResult?: unknown;
}

type Part = Record<string, unknown>;

/**
 * Turns an MCP tool result into the text the model reads: text parts joined by newlines,
 * `structuredContent` as JSON when there is no text part, and a one-line note for each image, audio
 * or resource, all in the server's order. Images are also kept as they came, for a model that takes them.
 * `isError` is kept as a flag. The length cut is the engine's.
 */
export function toolResultText(result: McpCallResult): ToolResult {
  const parts = Array.isArray(result.content) ? (result.content as unknown[]).filter(isPart) : [];
  const hasText = parts.some((p) => p.type === 'text');
  const lines = parts.map(partText);
  if (!hasText) {
    const structured = result.structuredContent ?? result.toolResult;
    if (structured !== undefined) lines.unshift(JSON.stringify(structured));
  }
  const images = parts
    .filter((p) => p.type === 'image' && typeof p.data === 'string' && typeof p.mimeType === 'string')
    .map((p) => ({ data: p.data as string, mimeType: p.mimeType as string }));
  return {
    text: lines.join('\n'),
    isError: result.isError === true,
    ...(images.length ? { images } : {}),
  };
}

function isPart(value: unknown): value is Part {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One content part as the model reads it (a tool result, a prompt message). */
export function partText(part: Part): string {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : '';
    case 'image':
    case 'audio':
      return `[${part.type} ${str(part.mimeType) ?? 'unknown type'}, ${base64Bytes(part.data)} bytes]`;
    case 'resource': {
      // An embedded text resource is part of the answer: its text goes to the model under its name.
      const resource = isPart(part.resource) ? part.resource : {};
      if (typeof resource.text === 'string')
        return `[resource ${describeResource(resource)}]\n${resource.text}\n[end of resource]`;
      return `[resource ${describeResource(resource)}, ${base64Bytes(resource.blob)} bytes]`;
    }
    case 'resource_link':
      // Only named: the user reads it when wanted (@server:uri in a message).
      return `[resource link ${str(part.name) ? `"${str(part.name)}" ` : ''}${describeResource(part)}]`;
    default:
      return `[${str(part.type) ?? 'unknown'} content]`;
  }
}

function describeResource(resource: Part): string {
  const uri = str(resource.uri) ?? '(no uri)';
  const mime = str(resource.mimeType);
  return mime ? `${uri} ${mime}` : uri;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Decoded size of base64 data without decoding it. */
function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
