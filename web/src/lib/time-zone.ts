import { TIME_ZONE_COOKIE } from '@ques/contracts/core';

/**
 * Tells the server the viewer's time zone (ADR 0058): a status page it renders then shows its times in this zone
 * from the first paint, not UTC until the app has loaded. A year, first-party, no identifier.
 */
export function rememberTimeZone(doc: Document = document): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  const secure = doc.location?.protocol === 'https:' ? '; Secure' : '';
  doc.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
