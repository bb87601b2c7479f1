import { readlinkSync } from 'node:fs';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The zone `localTimeZone()` found, for which the date comes from Date's own local fields. */
let processZone: string | undefined;

/** `Current date: YYYY-MM-DD (Weekday), time zone <IANA zone>` for `now` in `timeZone`. */
export function currentDateLine(now: Date, timeZone: string): string {
  if (timeZone === processZone) {
    // The process's own zone: no Intl.DateTimeFormat, whose first use costs ~20 ms of ICU set-up per run.
    const p = (n: number) => String(n).padStart(2, '0');
    return `Current date: ${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())} (${WEEKDAYS[now.getDay()]}), time zone ${timeZone}`;
  }
  const zone = validTimeZone(timeZone);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'long',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `Current date: ${part('year')}-${part('month')}-${part('day')} (${part('weekday')}), time zone ${zone}`;
}

/**
 * The machine's IANA time zone, for hosts to pass to {@link currentDateLine}: `TZ` when it names a zone, else the
 * target of /etc/localtime (both what Node itself uses for local time), else Intl's answer.
 */
export function localTimeZone(): string {
  processZone ??= zoneFromEnvironment() ?? validTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
  return processZone;
}

function zoneFromEnvironment(): string | undefined {
  const tz = process.env.TZ?.replace(/^:/, '');
  if (tz !== undefined) return /^[A-Za-z]+(\/[A-Za-z0-9_+-]+)+$/.test(tz) || tz === 'UTC' ? tz : undefined;
  try {
    return /zoneinfo\/([A-Za-z]+(?:\/[A-Za-z0-9_+-]+)*)$/.exec(readlinkSync('/etc/localtime'))?.[1];
  } catch {
    return undefined;
  }
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
