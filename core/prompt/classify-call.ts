import type { AttemptedCallError, FunctionCall } from './function-call.js';
import { isPlainObject, parseLenientJson } from './lenient-json.js';
import type { ToolResolver } from './tool-resolver.js';

const CALL_SHAPE = 'Write a call as {"server": "<server name>", "name": "<tool name>", "arguments": {...}}.';
const NAME_KEYS = ['name', 'function', 'tool', 'tool_name'] as const;
// Keys that belong to the call itself, never to flat arguments.
const CALL_KEYS = new Set(['server', ...NAME_KEYS, 'reason', 'type', 'id']);
// The FUNCTION_CALL template's placeholders: a copy that still holds them is the model quoting it.
const PLACEHOLDER = /^(?:server name|function name|argument\d+ value|arg\d+ name)$/;

/**
 * The calls a JSON value stands for, or null when it is ordinary data. `forced` is for values
 * that are calls by their wrapping (`<tool_call>`): they never come back null.
 */
export function classifyValue(
  value: unknown,
  resolver: ToolResolver,
  forced: boolean,
): FunctionCall[] | null {
  if (Array.isArray(value)) return classifyArray(value, resolver, forced);
  if (isPlainObject(value)) {
    if (Array.isArray(value.tool_calls)) return classifyArray(value.tool_calls, resolver, forced);
    if (isPlainObject(value.function_call)) return classifyValue(value.function_call, resolver, forced);
    const call = classifyObject(value, resolver, forced);
    return call ? [call] : null;
  }
  return forced ? [unreadable(resolver)] : null;
}

/** The error for a call wrapper whose content is not JSON at all. */
export function unreadable(resolver: ToolResolver): AttemptedCallError {
  return {
    type: 'attempted-call-error',
    message: `The function call could not be read as JSON. ${CALL_SHAPE} ${resolver.describeAvailable()}`,
  };
}

function classifyArray(items: unknown[], resolver: ToolResolver, forced: boolean): FunctionCall[] | null {
  if (items.length === 0 || !items.every(isPlainObject)) return forced ? [unreadable(resolver)] : null;
  const calls = items.map((item) => classifyObject(item, resolver, forced));
  if (calls.every((c) => c === null)) return null;
  return calls.map(
    (c) =>
      c ?? {
        type: 'attempted-call-error',
        message: `This element of the call array is not a function call. ${CALL_SHAPE}`,
      },
  );
}

function classifyObject(
  o: Record<string, unknown>,
  resolver: ToolResolver,
  forced: boolean,
): FunctionCall | null {
  // OpenAI's own shape: {"type": "function", "function": {"name": ..., "arguments": "..."}}.
  if (isPlainObject(o.function) && typeof o.function.name === 'string') {
    const inner = { ...o.function };
    if (typeof o.server === 'string' && typeof inner.server !== 'string') inner.server = o.server;
    return classifyObject(inner, resolver, true);
  }
  const nameKey = NAME_KEYS.find((k) => typeof o[k] === 'string');
  const name = nameKey === undefined ? undefined : (o[nameKey] as string);
  const server = typeof o.server === 'string' ? o.server : undefined;
  const hasArguments = 'arguments' in o || 'parameters' in o;
  const attempted = forced || (name !== undefined && (server !== undefined || hasArguments));
  if (name === undefined) {
    return attempted
      ? error(undefined, undefined, `The function call names no tool. ${CALL_SHAPE}`, resolver)
      : null;
  }
  // Ordinary text, never run nor answered: an object naming a tool without arguments (its other keys
  // are not arguments), a tool definition, the template quoted back. A wrapper (`<tool_call>`) still makes a call.
  if (!forced && (!hasArguments || isDefinition(o) || quotesTemplate(o))) return null;

  const found = resolver.resolve(server, name);
  if (found.kind === 'ambiguous') {
    const servers = found.servers.map((s) => `"${s}"`).join(', ');
    return {
      type: 'attempted-call-error',
      name,
      message: `Tool "${name}" exists on more than one server: ${servers}. Call it again with "server" set to the one you mean.`,
    };
  }
  if (found.kind === 'unknown') {
    if (!attempted) return null;
    const what =
      server === undefined
        ? `There is no tool named "${name}".`
        : `There is no tool "${name}" on server "${server}".`;
    return error(server, name, what, resolver);
  }
  const { tool } = found;
  const args = readArguments(o);
  if (args === null) {
    return {
      type: 'attempted-call-error',
      server: tool.server,
      name: tool.name,
      message: `The "arguments" of the call to tool "${tool.name}" on server "${tool.server}" must be a JSON object.`,
    };
  }
  const call: FunctionCall = { type: 'call', server: tool.server, name: tool.name, arguments: args };
  if (typeof o.reason === 'string') call.reason = o.reason;
  if (server !== undefined && server.toLowerCase() !== tool.server.toLowerCase()) call.otherServer = server;
  return call;
}

// `arguments`, else `parameters`, else the object's own other keys (flat arguments); a JSON string is read too.
function readArguments(o: Record<string, unknown>): Record<string, unknown> | null {
  const raw = 'arguments' in o ? o.arguments : 'parameters' in o ? o.parameters : flatArguments(o);
  if (raw === undefined || raw === null) return {};
  if (isPlainObject(raw)) return raw;
  if (typeof raw !== 'string') return null;
  if (raw.trim() === '') return {};
  const parsed = parseLenientJson(raw);
  return parsed.ok && isPlainObject(parsed.value) ? parsed.value : null;
}

/** `name` + `description` + a JSON Schema (`type`/`properties`) under `parameters`/`inputSchema`, no `arguments`. */
function isDefinition(o: Record<string, unknown>): boolean {
  if ('arguments' in o || !('description' in o)) return false;
  const schema = o.parameters ?? o.inputSchema ?? o.input_schema;
  return isPlainObject(schema) && ('type' in schema || 'properties' in schema);
}

function quotesTemplate(o: Record<string, unknown>): boolean {
  const args = isPlainObject(o.arguments) ? o.arguments : {};
  return [o.server, o.name, ...Object.keys(args), ...Object.values(args)].some(
    (v) => typeof v === 'string' && PLACEHOLDER.test(v),
  );
}

function flatArguments(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([key]) => !CALL_KEYS.has(key)));
}

function error(
  server: string | undefined,
  name: string | undefined,
  what: string,
  resolver: ToolResolver,
): AttemptedCallError {
  const e: AttemptedCallError = {
    type: 'attempted-call-error',
    message: `${what} ${resolver.describeAvailable()}`,
  };
  if (server !== undefined) e.server = server;
  if (name !== undefined) e.name = name;
  return e;
}
