import { jsonrepair } from 'jsonrepair';
import type { Logger } from '../logging/logger.js';
import { jsonShape } from '../text/json-complete.js';
import type { NativeToolCall } from '../types/message.js';

/**
 * A streamed call's arguments (OpenAI, Anthropic: a JSON text) as the call carries them: parsed; cut off by the
 * end of the stream (never repaired into a run); or not JSON at all (never run either, and the model is told so).
 */
export function streamedToolArguments(
  raw: string,
  logger: Logger,
  toolName: string,
): Pick<NativeToolCall, 'arguments' | 'cutOff' | 'invalidArguments'> {
  if (!raw.trim()) return { arguments: {} };
  const shape = jsonShape(raw);
  if (shape === 'cut-off') {
    logger.warn(`Tool call ${toolName} was cut off (${raw.length} characters of arguments); not run.`);
    return { arguments: {}, cutOff: true };
  }
  const parsed = shape === 'complete' ? readObject(raw) : undefined;
  if (parsed) return { arguments: parsed };
  logger.warn(`Tool call ${toolName}: arguments are not valid JSON; not run: ${raw.slice(0, 200)}`);
  return { arguments: {}, invalidArguments: true };
}

/**
 * A native tool call's arguments as an object. Servers send a JSON string (OpenAI) or an object (Ollama); a string
 * that is not quite JSON is repaired; anything that is still not an object becomes `{}` (logged), and the tool's
 * own argument validation then answers the model.
 */
export function parseToolArguments(raw: unknown, logger: Logger, toolName: string): Record<string, unknown> {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string' || !raw.trim()) return {};
  const value = readObject(raw);
  if (value) return value;
  logger.warn(`Tool call ${toolName}: arguments are not a JSON object: ${raw.slice(0, 200)}`);
  return {};
}

/** JSON text as an object, repaired when it is not quite JSON (a trailing comma, single quotes). */
function readObject(raw: string): Record<string, unknown> | undefined {
  for (const attempt of [() => JSON.parse(raw) as unknown, () => JSON.parse(jsonrepair(raw)) as unknown]) {
    try {
      const value = attempt();
      if (isObject(value)) return value;
    } catch {
      // try the next way
    }
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
