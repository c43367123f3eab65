import { createContext, useContext, useEffect, useState } from 'react';
import { countdownClock, localDateTime, utcDateTime } from './time';

/** The zone times are shown in: the browser's (undefined), or one a test sets. */
export const TimeZoneContext = createContext<string | undefined>(undefined);

/** A time in the viewer's zone, its UTC time as the tooltip. */
export function LocalTime({ iso }: { iso: string }) {
  const timeZone = useContext(TimeZoneContext);
  return (
    <time dateTime={iso} title={utcDateTime(iso)}>
      {localDateTime(iso, timeZone)}
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

/** The time left until `deadline`, ticking every second in a box of fixed width (tabular digits: nothing moves). */
export function Countdown({ deadline }: { deadline: string }) {
  const now = useNow(1000);
  return (
    <span className="status-countdown" data-testid="countdown-clock">
      {countdownClock(new Date(deadline), now)}
    </span>
  );
}
