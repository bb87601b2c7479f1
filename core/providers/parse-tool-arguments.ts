import { jsonrepair } from 'jsonrepair';
import type { Logger } from '../logging/logger.js';

/**
 * A native tool call's arguments as an object. Servers send a JSON string (OpenAI) or an object (Ollama); a string
 * that is not quite JSON is repaired; anything that is still not an object becomes `{}` (logged), and the tool's
 * own argument validation then answers the model.
 */
export function parseToolArguments(raw: unknown, logger: Logger, toolName: string): Record<string, unknown> {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string' || !raw.trim()) return {};
  for (const attempt of [() => JSON.parse(raw) as unknown, () => JSON.parse(jsonrepair(raw)) as unknown]) {
    try {
      const value = attempt();
      if (isObject(value)) return value;
    } catch {
      // try the next way
    }
  }
  logger.warn(`Tool call ${toolName}: arguments are not a JSON object: ${raw.slice(0, 200)}`);
  return {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
