import { useEffect, useState } from 'react';
import { formatDate } from '../lib/text';

/** The calendar day of `iso` in the browser's own time zone ("Mar 1, 2025"). */
export function formatLocalDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/**
 * A date in a `<time datetime>`, in the viewer's time zone. The server render (and so the hydration of it) writes the
 * UTC day, the only one a server can know; after mount the browser's own day replaces it when it differs (near
 * midnight UTC). Only the text changes, in place: callers put it where nothing sits after it on its line (a card's
 * footer with the rest aligned to the other end), so the swap moves no box.
 */
export function LocalDate({ iso, id, className }: { iso: string; id?: string; className?: string }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <time dateTime={iso} id={id} className={className}>
      {mounted ? formatLocalDate(iso) : formatDate(iso)}
    </time>
  );
}
