/** Milliseconds to wait from a `Retry-After` value (delta-seconds or an HTTP date) or `retry-after-ms`; undefined if absent or unreadable. */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
