/**
 * The title part of a session file name: the first 10 code points of the trimmed message,
 * whitespace runs as `_`, only letters, combining marks, digits and `_` kept, no leading/trailing `_`.
 */
export function sessionTitle(firstMessage: string): string {
  const cut = Array.from(firstMessage.trim()).slice(0, 10).join('');
  const title = cut
    .replace(/\s+/gu, '_')
    .replace(/[^\p{L}\p{M}\p{Nd}_]/gu, '')
    .replace(/^_+|_+$/g, '');
  return title || 'session';
}

/** `YYYYMMDD_HHMMSS` in local time. */
export function sessionStamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}_${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/** The file name for a session, and the variants to try when it exists (`_2`, `_3`, …). */
export function sessionFileName(startedAt: Date, firstMessage: string, attempt = 1): string {
  const suffix = attempt > 1 ? `_${attempt}` : '';
  return `${sessionStamp(startedAt)}_${sessionTitle(firstMessage)}${suffix}.json`;
}
