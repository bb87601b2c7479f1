import { classifyValue } from '../classify-call.js';
import type { FunctionCall } from '../function-call.js';
import { parseLenientJson } from '../lenient-json.js';
import type { ToolResolver } from '../tool-resolver.js';
import type { PythonCall } from './python-calls.js';

// How the formats turn what they found into calls. After a marker every call is an attempted one (`forced`):
// an unknown tool or broken arguments go back to the model as an error.

/** A call, or a list of calls, written as JSON after a marker; null when the text is not JSON at all. */
export function jsonCalls(text: string, resolver: ToolResolver): FunctionCall[] | null {
  const parsed = parseLenientJson(text);
  return parsed.ok ? classifyValue(parsed.value, resolver, true) : null;
}

/** A call given by its tool name and its arguments as JSON text (kept as written when they are not JSON). */
export function namedCall(name: string, args: string, resolver: ToolResolver): FunctionCall[] {
  const parsed = parseLenientJson(args.trim() === '' ? '{}' : args);
  return classifyValue({ name, arguments: parsed.ok ? parsed.value : args }, resolver, true) ?? [];
}

/** Calls by name with their arguments already read (Python-style calls, Qwen3-Coder's XML). */
export function callsByName(calls: readonly PythonCall[], resolver: ToolResolver): FunctionCall[] {
  return calls.flatMap((c) => classifyValue(c, resolver, true) ?? []);
}
