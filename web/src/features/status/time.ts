/*
 * Times on the status page (issue 28): in the viewer's own time zone, with the UTC time as a tooltip. The server
 * renders them in UTC (it cannot know the zone) and the browser switches once it has hydrated (clock.tsx, ADR 0058).
 */

const FORMAT: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/** The date's parts (weekday, day, month, year, hour, minute) in `timeZone`, or the browser's when undefined. */
function partsOf(date: Date, timeZone: string | undefined): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-GB', timeZone ? { ...FORMAT, timeZone } : FORMAT);
  return Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
}

/** "Tue 4 Dec, 14:32" in `timeZone` (default: the browser's); with the year only when it is not this year. */
export function localDateTime(iso: string, timeZone?: string, now = new Date()): string {
  const p = partsOf(new Date(iso), timeZone);
  const year = p.year !== partsOf(now, timeZone).year ? ` ${p.year}` : '';
  return `${p.weekday} ${p.day} ${p.month}${year}, ${p.hour}:${p.minute}`;
}

/** "Tue 4 Dec 2026, 09:02 UTC": the same instant in UTC, for the tooltip. */
export function utcDateTime(iso: string): string {
  const p = partsOf(new Date(iso), 'UTC');
  return `${p.weekday} ${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute} UTC`;
}

/**
 * Every way `localDateTime` can write `iso`, whatever the viewer's zone: the dates at UTC−12, UTC and UTC+14 cover
 * every zone's date, and hours and minutes in tabular digits are as wide in any zone. The same on server and browser.
 */
export function zoneRenderings(iso: string, now = new Date()): string[] {
  return ['Etc/GMT+12', 'UTC', 'Etc/GMT-14'].map((zone) => localDateTime(iso, zone, now));
}

/** "4 d 23 h 05 min 08 s" until `deadline`: the units after the days padded, so the width stays; never negative. */
export function countdownClock(deadline: Date, now: Date): string {
  const total = Math.max(0, Math.floor((deadline.getTime() - now.getTime()) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  return `${days} d ${pad(hours)} h ${pad(minutes)} min ${pad(total % 60)} s`;
}
