import type { Question } from '@ques/contracts/core';
import type { ReactNode } from 'react';
import { ErrorBanner, SuccessBanner } from '../../components/Banner';
import { DataTable } from '../../components/DataTable';
import {
  listCountText,
  ListBody,
  PendingToggle,
  QuestionCardHead,
  QuestionCards,
  SearchBox,
  StatusFilterSelect,
  type Column,
} from './list-parts';
import { questionId } from './lists';
import type { AdminList, PendingList } from './use-admin-list';

interface QuestionListShellProps {
  title: string;
  /** Under the title (the inbox's "3 waiting for your answer."). */
  subtitle?: ReactNode;
  /** Next to the title (the curated list's "Curate a New Q&A"). */
  action?: ReactNode;
  page: AdminList;
  searchPlaceholder: string;
  /** Offer "Show Pending Only" on narrow screens (spec §2: the inbox's mobile cards). */
  pendingToggle?: boolean;
  emptyText: ReactNode;
  noMatchText: ReactNode;
  /** The table's caption and the cards' label. */
  label: string;
  columns: readonly Column[];
  /** One card's content on narrow screens. */
  card: (q: Question) => ReactNode;
  /** The page's modals. */
  children?: ReactNode;
}

/**
 * The received and asked lists (questions between people): searched by question, name or date, with the pending filter
 * on narrow screens; a card is the question's head (`meta` under it) and the row's actions.
 */
export function PendingQuestionListShell({
  meta,
  actions,
  ...shell
}: Omit<QuestionListShellProps, 'searchPlaceholder' | 'pendingToggle' | 'noMatchText' | 'card' | 'page'> & {
  page: PendingList;
  meta: (q: Question) => ReactNode;
  actions: (q: Question) => ReactNode;
}) {
  const search = shell.page.search.trim();
  return (
    <QuestionListShell
      {...shell}
      searchPlaceholder="Search questions, names, dates"
      pendingToggle
      noMatchText={
        search
          ? `No questions match “${search}”.`
          : shell.page.narrow || shell.page.status === 'all'
            ? 'No pending questions.'
            : `No ${shell.page.status} questions.`
      }
      card={(q) => (
        <>
          <QuestionCardHead question={q} now={shell.page.now} meta={meta(q)} />
          {actions(q)}
        </>
      )}
    />
  );
}

/**
 * The frame of the three admin lists (Question Received, Questions Asked, Questions Curated; spec §2): title, search
 * box and toolbar, error and success banners, then the loading, error, empty or no-match state, or the rows — a table
 * on wide screens, cards on narrow ones.
 */
export function QuestionListShell({
  title,
  subtitle,
  action,
  page,
  searchPlaceholder,
  pendingToggle,
  emptyText,
  noMatchText,
  label,
  columns,
  card,
  children,
}: QuestionListShellProps) {
  return (
    <section className="admin-page q-page">
      <header className="q-page__head">
        <div>
          <h1 className="admin-page__title">{title}</h1>
          {subtitle}
        </div>
        {action}
      </header>
      <div className="list-toolbar">
        <SearchBox value={page.search} onChange={page.setSearch} placeholder={searchPlaceholder} />
        {pendingToggle && page.narrow ? <PendingToggle pendingOnly={page.pendingOnly} onToggle={page.togglePendingOnly} /> : null}
        {pendingToggle && !page.narrow ? <StatusFilterSelect value={page.status} onChange={page.setStatus} /> : null}
      </div>
      {page.list.status === 'ready' && page.all.length > 0 ? (
        <p className="list-count" data-testid="list-count">
          {listCountText(page.all.length, page.shown.length)}
        </p>
      ) : null}
      <ErrorBanner>{page.error}</ErrorBanner>
      <SuccessBanner message={page.success} className="q-page__success" />
      <ListBody list={page.list} total={page.all.length} shown={page.shown.length} emptyText={emptyText} noMatchText={noMatchText}>
        {page.narrow ? (
          <QuestionCards label={label} rows={page.shown} rowKey={questionId}>
            {card}
          </QuestionCards>
        ) : (
          <DataTable
            className="q-table"
            caption={label}
            columns={columns}
            rows={page.shown}
            rowKey={questionId}
            labelCells
          />
        )}
      </ListBody>
      {children}
    </section>
  );
}
