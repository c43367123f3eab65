import type { ReactNode } from 'react';
import { ErrorBanner } from './Banner';

/**
 * A form's end: what went wrong (with `errorId` when the fields point at it), then its submit button, which says
 * "Saving…" while the request runs, and any other buttons (`children`, a Cancel).
 */
export function SaveActions({
  error,
  errorId,
  saving,
  label,
  className,
  children,
}: {
  error: string;
  errorId?: string;
  saving: boolean;
  label: string;
  /** The actions row's class (`account__actions`, `ops-actions`). */
  className: string;
  children?: ReactNode;
}) {
  return (
    <>
      <ErrorBanner id={errorId}>{error}</ErrorBanner>
      <div className={className}>
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : label}
        </button>
        {children}
      </div>
    </>
  );
}
