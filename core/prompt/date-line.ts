/** `Current date: YYYY-MM-DD (Weekday), time zone <IANA zone>` for `now` in `timeZone` (R-SP-3). */
export function currentDateLine(now: Date, timeZone: string): string {
  const zone = validTimeZone(timeZone);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'long',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `Current date: ${part('year')}-${part('month')}-${part('day')} (${part('weekday')}), time zone ${zone}`;
}

/** The machine's IANA time zone, for hosts to pass to {@link currentDateLine}. */
export function localTimeZone(): string {
  return validTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

// An unknown zone name (a typo in TZ) falls back to UTC rather than failing every turn.
function validTimeZone(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}
