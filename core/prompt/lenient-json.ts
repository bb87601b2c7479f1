import { jsonrepair } from 'jsonrepair';

/** The result of reading model-written JSON: the value, or `ok: false` when even the repair failed. */
export type LenientJsonResult = { ok: true; value: unknown } | { ok: false };

// jsonrepair is fast on small texts but not linear on every large broken one (unclosed strings make it
// re-read); above this size only strict JSON is accepted, which keeps the parser linear.
const REPAIR_MAX_CHARS = 64 * 1024;

/**
 * Reads JSON as models write it (trailing commas, comments, unquoted keys, single quotes, missing closers)
 * through the jsonrepair library. Strict JSON takes the fast path. Never throws.
 * Texts over 64 KB must be strict JSON.
 */
export function parseLenientJson(text: string): LenientJsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // not strict JSON: let the repair library try
  }
  if (text.length > REPAIR_MAX_CHARS) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(jsonrepair(text)) as unknown };
  } catch {
    return { ok: false };
  }
}

/** True for a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
