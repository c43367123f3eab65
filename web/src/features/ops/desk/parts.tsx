import { useId, useRef, useState, type ReactNode } from 'react';
import { ErrorBanner, LoadingText, SuccessBanner } from '../../../components/Banner';
import { SelectField, TextAreaField, type SelectOption } from '../../../components/Field';
import { useFieldErrors } from '../../../components/use-field-errors';
import { Modal } from '../../../components/Modal';
import { ApiError, errorText, newIdempotencyKey } from '../../../lib/api';
import type { ApiData } from '../../../lib/use-api-data';

/** Loading / error (with Try again) / empty / content: the four states every console list has. */
export function Loaded<T>({
  data,
  what,
  isEmpty,
  empty,
  children,
}: {
  data: ApiData<T>;
  what: string;
  isEmpty: (value: T) => boolean;
  empty: ReactNode;
  children: (value: T) => ReactNode;
}) {
  if (data.status === 'loading') return <LoadingText>Loading {what}…</LoadingText>;
  if (data.status === 'error' || data.data === undefined)
    return (
      <div className="ops-desk__error">
        <ErrorBanner>
          {errorText(data.error, `Could not load ${what}.`, `Could not reach the server to load ${what}.`)}
        </ErrorBanner>
        <button type="button" className="button button--small" onClick={data.retry}>
          Try again
        </button>
      </div>
    );
  if (isEmpty(data.data)) return <p className="ops-desk__empty">{empty}</p>;
  return <>{children(data.data)}</>;
}

/** A queue page's status filter: the chosen status (`''` for all) and `DeskPage`'s `statusFilter`, "All" last. */
export function useStatusFilter<S extends string>(
  initial: S,
  choices: readonly { value: S; label: string }[],
) {
  const [status, setStatus] = useState<S | ''>(initial);
  const options: readonly SelectOption[] = [...choices, { value: '', label: 'All' }];
  return [status, { value: status, onChange: setStatus, options }] as const;
}

/** A desk page: its title, its filters (a status filter first), the confirmation of the last action, then its cards. */
export function DeskPage<S extends string = string>({
  id,
  title,
  statusFilter,
  filters,
  success,
  children,
}: {
  /** The heading's id, naming the page's section. */
  id: string;
  title: string;
  /** The "Status" select every queue page has: its value, its setter and its choices. */
  statusFilter?: { value: S; onChange: (value: S) => void; options: readonly SelectOption[] };
  /** Further filters, after the status. */
  filters?: ReactNode;
  success: string;
  children: ReactNode;
}) {
  return (
    <section className="ops-desk" aria-labelledby={id}>
      <h1 id={id} className="ops-desk__title">
        {title}
      </h1>
      {statusFilter || filters ? (
        <div className="ops-desk__filters">
          {statusFilter ? <SelectField<S> label="Status" {...statusFilter} /> : null}
          {filters}
        </div>
      ) : null}
      <SuccessBanner message={success} />
      {children}
    </section>
  );
}

/** A list in the four states of `Loaded`: `children` renders one item (its `<li>`). */
export function LoadedList<T>({
  data,
  what,
  empty,
  label,
  className = 'ops-desk__list',
  children,
}: {
  data: ApiData<T[]>;
  what: string;
  empty: ReactNode;
  /** The list's accessible name. */
  label: string;
  /** The `<ul>`'s class (the desk's cards by default). */
  className?: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <Loaded data={data} what={what} isEmpty={(l) => l.length === 0} empty={empty}>
      {(items) => (
        <ul className={className} aria-label={label}>
          {items.map(children)}
        </ul>
      )}
    </Loaded>
  );
}

/** A card (with an optional heading) around a `LoadedList`. */
export function DeskList<T>({
  data,
  what,
  empty,
  label,
  heading,
  children,
}: {
  data: ApiData<T[]>;
  what: string;
  empty: ReactNode;
  /** The list's accessible name. */
  label: string;
  heading?: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <div className="ops-desk__card">
      {heading ? <h2>{heading}</h2> : null}
      <LoadedList data={data} what={what} empty={empty} label={label}>
        {children}
      </LoadedList>
    </div>
  );
}

/**
 * A destructive action's confirmation: says what will happen, then runs it once. The Idempotency-Key is made when the
 * dialog opens, so pressing Confirm again (or a retry after a network error) cannot do it twice.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  note,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Runs the action with the dialog's Idempotency-Key and the note's trimmed text (`''` without a note). */
  onConfirm: (key: string, note: string) => Promise<void>;
  onClose: () => void;
  /** A required note (a reason, an answer) written in the dialog; `missing` is the error while it is empty. */
  note?: { label: string; rows: number; maxLength: number; missing: string };
}) {
  const key = useRef(newIdempotencyKey());
  const [text, setText] = useState('');
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const form = useFieldErrors(() => ({ note: note && !text.trim() ? note.missing : undefined }));
  return (
    <Modal title={title} onClose={onClose} className="ops-desk__confirm">
      {(requestClose) => (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (busy) return;
            setError('');
            if (!form.attempt()) return;
            setBusy(true);
            onConfirm(key.current, text.trim())
              .then(() => requestClose())
              .catch((err: unknown) => {
                setError(
                  err instanceof ApiError
                    ? errorText(err, 'The action failed.', '')
                    : err instanceof Error && err.message !== 'Failed to fetch'
                      ? err.message
                      : 'Could not reach the server. Please try again.',
                );
                setBusy(false);
              });
          }}
        >
          <div className="ops-desk__confirm-text">{children}</div>
          {note ? (
            <TextAreaField
              label={note.label}
              marker="required"
              {...form.field('note')}
              rows={note.rows}
              maxLength={note.maxLength}
              value={text}
              onChange={setText}
            />
          ) : null}
          <ErrorBanner id={errorId}>{error}</ErrorBanner>
          <div className="ops-desk__confirm-actions">
            <button type="button" className="button" onClick={requestClose} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Working…' : confirmLabel}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
