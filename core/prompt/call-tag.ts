import { classifyValue, unreadable } from './classify-call.js';
import type { FunctionCall } from './function-call.js';
import { parseLenientJson } from './lenient-json.js';
import type { ToolResolver } from './tool-resolver.js';

/** The tags models wrap calls in: `<tool_call>{call}</tool_call>`, `<function_call name="N">{args}</function_call>`. */
export const CALL_TAG_NAMES = ['tool_call', 'function_call'] as const;

/**
 * The calls in one call tag, given its opening tag and body. A closed tag is always an attempted call (an
 * unreadable body is an error for the model); a tag cut off by the end of the message only if it reads as one.
 */
export function readCallTag(
  tagName: string,
  openTag: string,
  body: string,
  closed: boolean,
  resolver: ToolResolver,
): FunctionCall[] | null {
  const attrs = readAttributes(openTag);
  const name = attrs.get('name');
  if (tagName === 'function_call' && name !== undefined) {
    const args = body.trim() === '' ? { ok: true as const, value: {} } : parseLenientJson(body);
    if (!args.ok && !closed) return null;
    const call: Record<string, unknown> = { name, arguments: args.ok ? args.value : body };
    const server = attrs.get('server');
    if (server !== undefined) call.server = server;
    return classifyValue(call, resolver, true);
  }
  const parsed = parseLenientJson(body);
  if (parsed.ok) return classifyValue(parsed.value, resolver, closed);
  return closed ? [unreadable(resolver)] : null;
}

/** `name="x"` / `name='x'` pairs of an opening tag. */
function readAttributes(tag: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of tag.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const key = m[1];
    const value = m[2] ?? m[3];
    if (key !== undefined && value !== undefined) attrs.set(key, value);
  }
  return attrs;
}
