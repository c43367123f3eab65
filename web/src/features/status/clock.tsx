import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { countdownClock, localDateTime, utcDateTime, zoneRenderings } from './time';

/** The zone times are shown in: the browser's (undefined), or one a test sets. */
export const TimeZoneContext = createContext<string | undefined>(undefined);

const noSubscription = () => () => {};
/**
 * False while the server renders and while the browser hydrates that HTML (React then reads the server snapshot),
 * true right after, and at once for what the browser renders itself.
 */
const useHydrated = () => useSyncExternalStore(noSubscription, () => true, () => false);

/**
 * A time in the viewer's zone, its UTC time as the tooltip. The server cannot know the zone: the page is rendered
 * (and hydrated) in UTC and switches once hydrated. The box is as wide as the widest way any zone writes this instant
 * (`data-zones`, laid out unseen by status.css), on the server and in the browser alike: the switch moves nothing.
 */
export function LocalTime({ iso }: { iso: string }) {
  const timeZone = useContext(TimeZoneContext);
  const zone = useHydrated() ? timeZone : 'UTC';
  return (
    // The year is shown relative to "now": the server's and the browser's may straddle a new year. The text is
    // rewritten right after hydration anyway.
    <time dateTime={iso} title={utcDateTime(iso)} className="local-time" data-zones={zoneRenderings(iso).join('\n')} suppressHydrationWarning>
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
