import type { JsonChange } from './json-edit.js';

/** config.json's `allowedTools` as the file holds it now (a hand edit may have changed it meanwhile). */
function listed(current: unknown): string[] {
  const list = (current as { allowedTools?: unknown } | null)?.allowedTools;
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
}

/** The edits that allow `key` (`server/tool`) for good, remembering what its description was then. */
export function allowChanges(current: unknown, key: string, digest: string): JsonChange[] {
  const list = listed(current);
  return [
    ...(list.includes(key) ? [] : [{ path: ['allowedTools'], value: [...list, key] }]),
    { path: ['allowedToolDigests', key], value: digest },
  ];
}

/** The edits that take `key` off the list (and its digest): its calls ask again. */
export function disallowChanges(current: unknown, key: string): JsonChange[] {
  return [
    { path: ['allowedTools'], value: listed(current).filter((k) => k !== key) },
    { path: ['allowedToolDigests', key], value: undefined },
  ];
}
