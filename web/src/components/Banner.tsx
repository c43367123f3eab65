import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { SUCCESS_BANNER_MS } from '../lib/constants';

/** A success message that clears itself after 5 s (spec §2, §9). */
export function useSuccessMessage(): [string, (message: string) => void] {
  const [message, setMessage] = useState('');
  const timer = useRef<number | undefined>(undefined);
  const show = useCallback((next: string) => {
    window.clearTimeout(timer.current);
    setMessage(next);
    if (next) timer.current = window.setTimeout(() => setMessage(''), SUCCESS_BANNER_MS);
  }, []);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return [message, show];
}

/** Polite live region: it stays in the DOM so screen readers announce text put into it. */
export function SuccessBanner({ message, className }: { message: string; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={className}>
      {message ? <p className="banner banner--success">{message}</p> : null}
    </div>
  );
}

export function ErrorBanner({ children, id }: { children: ReactNode; id?: string }) {
  if (!children) return null;
  return (
    <p role="alert" className="banner banner--error" id={id}>
      {children}
    </p>
  );
}

export function LoadingText({ children }: { children: ReactNode }) {
  return (
    <p className="loading-text" role="status" aria-live="polite">
      <span className="loading-dot" aria-hidden="true" />
      {children}
    </p>
  );
}
