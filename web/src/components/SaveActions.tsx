import type { ReactNode } from 'react';
import { ErrorBanner } from './Banner';
import { ErrorSummary } from './ErrorSummary';

/**
 * A form's end: what went wrong (with `errorId` when the fields point at it), then its submit button, which says
 * "Saving…" while the request runs, and any other buttons (`children`, a Cancel).
 */
export function SaveActions({
  error,
  errorId,
  invalidCount,
  saving,
  label,
  className,
  children,
}: {
  error: string;
  errorId?: string;
  /** How many fields show an error (`useFieldErrors`' `count`): the summary over the button. */
  invalidCount?: number;
  saving: boolean;
  label: string;
  /** The actions row's class (`account__actions`, `ops-actions`). */
  className: string;
  children?: ReactNode;
}) {
  return (
    <>
      {invalidCount === undefined ? null : <ErrorSummary count={invalidCount} />}
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
