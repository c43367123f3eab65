import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { countdownClock, localDateTime, utcDateTime, zoneRenderings } from './time';

/** The zone times are shown in: the browser's (undefined), or one a test sets. */
export const TimeZoneContext = createContext<string | undefined>(undefined);
/** The zone the server rendered the page in: the viewer's from their `ques_tz` cookie, or undefined (UTC). */
export const ServerZoneContext = createContext<string | undefined>(undefined);

const noSubscription = () => () => {};
/**
 * False while the server renders and while the browser hydrates that HTML (React then reads the server snapshot),
 * true right after, and at once for what the browser renders itself.
 */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

/**
 * A time in the viewer's zone, its UTC time as the tooltip. The server renders it in the zone the viewer's cookie
 * names (the app sets it on every visit), so the page that follows a checkout paints in the right zone at once.
 * Without one (a link opened on another device) it renders UTC and switches once hydrated; the box is then as wide as
 * the widest way any zone writes this instant (`data-zones`, laid out unseen by status.css): the switch moves nothing.
 */
export function LocalTime({ iso }: { iso: string }) {
  const timeZone = useContext(TimeZoneContext);
  const serverZone = useContext(ServerZoneContext);
  const zone = useHydrated() ? timeZone : (serverZone ?? 'UTC');
  const zones = serverZone ? undefined : zoneRenderings(iso).join('\n');
  return (
    // The year is shown relative to "now": the server's and the browser's may straddle a new year. The text is
    // rewritten right after hydration anyway.
    <time
      dateTime={iso}
      title={utcDateTime(iso)}
      className="local-time"
      data-zones={zones}
      suppressHydrationWarning
    >
      {localDateTime(iso, zone)}
    </time>
  );
}

/** The current time, renewed every `everyMs`. */
export function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), everyMs);
    return () => window.clearInterval(id);
  }, [everyMs]);
  return now;
}

/**
 * The time left until `deadline`, ticking every second in a box of fixed width (tabular digits: nothing moves). A
 * server-rendered page keeps the server's figure until the first tick: the browser's clock is a moment later.
 */
export function Countdown({ deadline }: { deadline: string }) {
  const now = useNow(1000);
  return (
    <span className="status-countdown" data-testid="countdown-clock" suppressHydrationWarning>
      {countdownClock(new Date(deadline), now)}
    </span>
  );
}
