// Zod-free and dependency-free: the web app's first chunk imports it (web/src/lib/time-zone.ts).

/**
 * The viewer's IANA time zone, as the web app last saw it (ADR 0058): a status page rendered on the server shows its
 * times in this zone at once, instead of UTC until the app loads. Functional, first-party, no identifier.
 */
export const TIME_ZONE_COOKIE = 'ques_tz';

/** The time zone a `Cookie` header names in `ques_tz`, if it is one this runtime knows; else undefined. */
export function timeZoneFromCookie(header: string | undefined): string | undefined {
  const raw = header
    ?.split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${TIME_ZONE_COOKIE}=`));
  const zone = raw ? decodeURIComponent(raw.slice(TIME_ZONE_COOKIE.length + 1)) : '';
  if (!zone || zone.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(zone)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
