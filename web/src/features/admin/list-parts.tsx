import type { Question } from '@ques/contracts/core';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ErrorBanner, LoadingText } from '../../components/Banner';
import type { Column as DataColumn } from '../../components/DataTable';
import { isPending, isWithdrawn, tipView, type StatusFilter } from './lists';
import { plural } from '../../lib/text';
import { useDismiss } from '../../lib/use-dismiss';
import type { QuestionList } from './use-question-list';

/** Search box above every list (spec §2, §5). */
export function SearchBox({ value, onChange, placeholder }: { value: string; onChange: (v: string) => void; placeholder: string }) {
  const id = useId();
  return (
    <div className="list-search">
      <label htmlFor={id} className="visually-hidden">
        Search
      </label>
      <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" className="list-search__icon">
        <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <path d="M13 13l4 4" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <input
        id={id}
        className="input list-search__input"
        type="search"
        placeholder={placeholder}
        value={value}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** "Show Pending Only" / "Show All" (spec §2, mobile cards). */
export function PendingToggle({ pendingOnly, onToggle }: { pendingOnly: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="button button--ghost button--small list-toolbar__toggle" aria-pressed={pendingOnly} onClick={onToggle}>
      {pendingOnly ? 'Show All' : 'Show Pending Only'}
    </button>
  );
}

const STATUS_OPTIONS: readonly { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'pending', label: 'Pending' },
  { value: 'answered', label: 'Answered' },
  { value: 'withdrawn', label: 'Withdrawn' },
];

/** Wide screens: which statuses the table shows (issue 28; the cards have the pending toggle). */
export function StatusFilterSelect({ value, onChange }: { value: StatusFilter; onChange: (v: StatusFilter) => void }) {
  const id = useId();
  return (
    <div className="list-filter">
      <label htmlFor={id} className="list-filter__label">
        Status
      </label>
      <select id={id} className="input select list-filter__select" value={value} onChange={(e) => onChange(e.target.value as StatusFilter)}>
        {STATUS_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "5 questions", or "Showing 2 of 5 questions" while a search or filter hides some. */
export function listCountText(total: number, shown: number): string {
  return shown === total ? plural(total, 'question') : `Showing ${shown} of ${plural(total, 'question')}`;
}

/**
 * Loading, error and empty states of a list; renders `children` (the rows) when there is something to show.
 * `total` is the list before search and filters, `shown` what is left after them.
 */
export function ListBody({
  list,
  total,
  shown,
  emptyText,
  noMatchText,
  children,
}: {
  list: QuestionList;
  total: number;
  shown: number;
  emptyText: ReactNode;
  noMatchText: ReactNode;
  children: ReactNode;
}) {
  if (list.status === 'loading') return <LoadingText>Loading questions...</LoadingText>;
  if (list.status === 'error') {
    return (
      <div className="list-error">
        <ErrorBanner>Failed to fetch questions</ErrorBanner>
        <button type="button" className="button button--ghost button--small" onClick={list.retry}>
          Try again
        </button>
      </div>
    );
  }
  if (total === 0) return <p className="empty-state">{emptyText}</p>;
  if (shown === 0) return <p className="empty-state">{noMatchText}</p>;
  return (
    <>
      {children}
      {list.hasMore ? (
        <div className="list-more">
          <button type="button" className="button button--ghost" disabled={list.loadingMore} onClick={() => void list.loadMore()}>
            {list.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </div>
      ) : null}
    </>
  );
}

/** Pending, Answered, or Withdrawn (the asker took it back: issue 14). */
export function StatusTag({ question }: { question: Question }) {
  const [tone, label] = isWithdrawn(question) ? ['withdrawn', 'Withdrawn'] : isPending(question) ? ['pending', 'Pending'] : ['answered', 'Answered'];
  return <span className={`status-tag status-tag--${tone}`}>{label}</span>;
}

/** The tip and where it stands: held (with the time left before release), captured, released. */
export function TipCell({ question, now }: { question: Question; now: number }) {
  const view = tipView(question, now);
  if (!view) return <span className="tip-cell tip-cell--none">No tip</span>;
  return (
    <span className="tip-cell">
      <span className="tip-cell__amount">{view.amount}</span>{' '}
      <span className={`tip-cell__state tip-cell__state--${view.tone}`}>{view.state}</span>
      {view.detail ? <span className="tip-cell__detail">{view.detail}</span> : null}
    </span>
  );
}

/** Why a private question's display toggle is off (issue 14). */
export const PRIVATE_REASON = 'The asker chose “Private — only I see the answer”: it is never shown on your page.';

/** Issue 18: Ques hid this answer from public view — the owner is told why. */
export function HiddenByQues({ question }: { question: Question }) {
  if (!question.hiddenByOperator) return null;
  return (
    <span className="hidden-by-ques" role="note">
      Hidden by Ques: {question.hiddenByOperator.reason}
    </span>
  );
}

export function DisplayValue({ question }: { question: Question }) {
  if (question.hiddenByOperator)
    return (
      <span className="display-value display-value--no" title={`Hidden by Ques: ${question.hiddenByOperator.reason}`}>
        No
      </span>
    );
  if (question.isPrivate)
    return (
      <span className="display-value display-value--private" title={PRIVATE_REASON}>
        Private
      </span>
    );
  const shown = question.displayOnProfile !== false;
  return <span className={`display-value display-value--${shown ? 'yes' : 'no'}`}>{shown ? 'Yes' : 'No'}</span>;
}

export interface MenuAction {
  label: string;
  onSelect: () => void;
}

/**
 * The row's "more" menu (spec §2): its actions, and Delete with the confirmation "Are you sure?" ("Yes, delete" /
 * "No"). Escape and clicks elsewhere close it.
 */
export function RowMenu({
  subject,
  actions,
  onDelete,
  disabled,
}: {
  /** What the row is about, for the button's accessible name. */
  subject: string;
  actions: readonly MenuAction[];
  onDelete?: () => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (open) rootRef.current?.querySelector<HTMLElement>('.row-menu__panel button')?.focus();
    else setConfirming(false);
  }, [open]);
  useDismiss(open, rootRef, (how) => {
    setOpen(false);
    if (how === 'escape') toggleRef.current?.focus();
  });

  useEffect(() => {
    if (confirming) rootRef.current?.querySelector<HTMLElement>('.row-menu__confirm button')?.focus();
  }, [confirming]);

  const choose = (fn: () => void) => {
    setOpen(false);
    fn();
  };

  return (
    <div className="row-menu" ref={rootRef}>
      <button
        ref={toggleRef}
        type="button"
        className="icon-button row-menu__toggle"
        aria-label={`More actions for “${subject}”`}
        aria-expanded={open}
        aria-controls={panelId}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <circle cx="5" cy="12" r="2" fill="currentColor" />
          <circle cx="12" cy="12" r="2" fill="currentColor" />
          <circle cx="19" cy="12" r="2" fill="currentColor" />
        </svg>
      </button>
      {open ? (
        <div id={panelId} className="row-menu__panel">
          {confirming ? (
            <div className="row-menu__confirm" role="group" aria-label="Confirm delete">
              <p>Are you sure?</p>
              <div className="row-menu__confirm-actions">
                <button type="button" className="button button--danger button--small" onClick={() => onDelete && choose(onDelete)}>
                  Yes, delete
                </button>
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => {
                    setOpen(false);
                    toggleRef.current?.focus();
                  }}
                >
                  No
                </button>
              </div>
            </div>
          ) : (
            <ul className="row-menu__list">
              {actions.map((action) => (
                <li key={action.label}>
                  <button type="button" onClick={() => choose(action.onSelect)}>
                    {action.label}
                  </button>
                </li>
              ))}
              {onDelete ? (
                <li>
                  <button type="button" className="row-menu__delete" onClick={() => setConfirming(true)}>
                    Delete
                  </button>
                </li>
              ) : null}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}

/** A column of the admin lists' table. */
export type Column = DataColumn<Question>;

/** Phones: one card per question. */
export function QuestionCards({
  label,
  rows,
  rowKey,
  children,
}: {
  label: string;
  rows: readonly Question[];
  rowKey: (q: Question) => string;
  children: (q: Question) => ReactNode;
}) {
  return (
    <ul className="q-cards" aria-label={label}>
      {rows.map((q) => (
        <li key={rowKey(q)} className="q-card">
          {children(q)}
        </li>
      ))}
    </ul>
  );
}

/** The top of a received or asked question's card: status, tip, the question, and a line about it. */
export function QuestionCardHead({ question, now, meta }: { question: Question; now: number; meta: ReactNode }) {
  return (
    <>
      <div className="q-card__top">
        <StatusTag question={question} />
        <TipCell question={question} now={now} />
      </div>
      <p className="q-card__question">{question.question}</p>
      <p className="q-card__meta">{meta}</p>
    </>
  );
}
