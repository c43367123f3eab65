import { useMemo, useState } from 'react';
import { ErrorBanner, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { errorText } from '../../lib/api';
import { useDocumentHead } from '../../lib/head';
import { formatDate } from '../../lib/text';
import { useAuth } from '../auth/auth-context';
import { cancelPayment, deleteByReceiver, finalizePayment, setDisplayOnProfile, type AdminQuestion } from './api';
import { AnswerModal } from './AnswerModal';
import {
  DisplayValue,
  ListBody,
  PendingToggle,
  QuestionCards,
  QuestionTable,
  RowMenu,
  SearchBox,
  StatusTag,
  TipCell,
  type Column,
  type MenuAction,
} from './list-parts';
import { askerName, formatDollars, isPending, listFor, matchesSearch, needsCancelPayment, needsFinalize, questionId } from './lists';
import { useNarrowScreen, useNow, useQuestionList } from './use-question-list';
import { ViewAnswerModal } from './ViewAnswerModal';

export const INBOX_MESSAGES = {
  updateFailed: 'Could not update the question. The list was reloaded.',
  deleteFailed: 'Could not delete the question. The list was reloaded.',
  cancelFailed: 'Failed to cancel the payment.',
  notDeleted: 'The question was not deleted.',
  finalizeFailed: 'Failed to finalize payment',
  deleted: 'Question deleted.',
  tipReleased: (amount: string) => `Question deleted. The ${amount} tip was released: the asker is not charged.`,
} as const;

type Open = { kind: 'answer' | 'view'; id: string } | null;

/** Question Received, the owner's inbox (spec §2, §4, §5): search, table or cards, reply, view, hide/show, delete. */
export default function QuestionReceivedPage() {
  useDocumentHead({ title: 'Question Received — Ques', description: 'Questions people asked you.', canonical: '/admin' });
  const { user } = useAuth();
  const list = useQuestionList('receiver');
  const narrow = useNarrowScreen();
  const now = useNow();
  const [search, setSearch] = useState('');
  const [pendingOnly, setPendingOnly] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const [success, showSuccess] = useSuccessMessage();

  const username = user?.username ?? '';
  const email = user?.email ?? '';
  const all = useMemo(() => listFor('receiver', list.items, { username, email }), [list.items, username, email]);
  const shown = all.filter((q) => matchesSearch('receiver', q, search) && (!narrow || !pendingOnly || isPending(q)));
  const pendingCount = all.filter(isPending).length;
  const current = open ? all.find((q) => questionId(q) === open.id) : undefined;

  const markBusy = (id: string, on: boolean) =>
    setBusy((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  // Spec §4: applied at once, the list reloaded when the server refuses.
  const toggleDisplay = async (q: AdminQuestion) => {
    const id = questionId(q);
    const next = q.displayOnProfile === false;
    setError('');
    list.update(id, { displayOnProfile: next });
    try {
      await setDisplayOnProfile(id, next);
    } catch (err) {
      console.warn('Changing the display setting failed', err);
      setError(INBOX_MESSAGES.updateFailed);
      await list.reload();
    }
  };

  // Spec §4: a pending tipped question has its payment cancelled first; a failed cancel keeps the question.
  const remove = async (q: AdminQuestion) => {
    const id = questionId(q);
    setError('');
    showSuccess('');
    const tipped = needsCancelPayment(q);
    if (tipped) {
      markBusy(id, true);
      try {
        await cancelPayment(id);
      } catch (err) {
        markBusy(id, false);
        setError(`${errorText(err, INBOX_MESSAGES.cancelFailed, INBOX_MESSAGES.cancelFailed)} ${INBOX_MESSAGES.notDeleted}`);
        return;
      }
      markBusy(id, false);
    }
    list.remove(id);
    try {
      await deleteByReceiver(id);
      showSuccess(tipped ? INBOX_MESSAGES.tipReleased(formatDollars(q.tip ?? 0)) : INBOX_MESSAGES.deleted);
    } catch (err) {
      console.warn('Deleting the question failed', err);
      setError(INBOX_MESSAGES.deleteFailed);
      await list.reload();
    }
  };

  // Spec §4: after answering a tipped question its payment is finalized; a failure shows its message, the answer stays.
  const answered = async (updated: AdminQuestion) => {
    list.replace(updated);
    const id = questionId(updated);
    if (!needsFinalize(updated)) return;
    try {
      const result = await finalizePayment(id);
      if (result?.status === 'captured' || result?.status === 'capturing') list.update(id, { tipStatus: result.status });
    } catch (err) {
      setError(errorText(err, INBOX_MESSAGES.finalizeFailed, INBOX_MESSAGES.finalizeFailed));
    }
  };

  const primary = (q: AdminQuestion) => {
    const id = questionId(q);
    return isPending(q) ? (
      <button type="button" className="button button--primary button--small" disabled={busy.has(id)} onClick={() => setOpen({ kind: 'answer', id })}>
        Reply
      </button>
    ) : (
      <button type="button" className="button button--ghost button--small" onClick={() => setOpen({ kind: 'view', id })}>
        View answer
      </button>
    );
  };

  const menu = (q: AdminQuestion) => {
    // Pending: Reply is the row's button, the menu holds Delete. Answered: hide/show and Delete.
    const actions: MenuAction[] = isPending(q)
      ? []
      : [
          {
            label: q.displayOnProfile === false ? 'Show on profile' : 'Hide from profile',
            onSelect: () => void toggleDisplay(q),
          },
        ];
    return <RowMenu subject={q.question} actions={actions} onDelete={() => void remove(q)} disabled={busy.has(questionId(q))} />;
  };

  const columns: Column[] = [
    { header: 'Question', className: 'q-table__question', cell: (q) => q.question },
    {
      header: 'Asked By',
      className: 'q-table__party',
      cell: (q) => (
        <span className="party">
          <span className="party__name">{askerName(q)}</span>
          {q.fromUsername && q.fromUsername !== 'guest' ? <span className="party__handle" title={`@${q.fromUsername}`}>@{q.fromUsername}</span> : <span className="party__handle">Guest</span>}
        </span>
      ),
    },
    { header: 'Date', className: 'q-table__date', cell: (q) => <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time> },
    { header: 'Tip', className: 'q-table__tip', cell: (q) => <TipCell question={q} now={now} /> },
    { header: 'Tag', cell: (q) => <StatusTag pending={isPending(q)} /> },
    { header: 'Display on Profile', className: 'q-table__display', cell: (q) => (isPending(q) ? <span className="muted">—</span> : <DisplayValue question={q} />) },
    {
      header: 'Actions',
      hideHeader: true,
      className: 'q-table__actions',
      cell: (q) => (
        <div className="row-actions">
          {primary(q)}
          {menu(q)}
        </div>
      ),
    },
  ];

  return (
    <section className="admin-page q-page">
      <header className="q-page__head">
        <div>
          <h1 className="admin-page__title">Question Received</h1>
          {list.status === 'ready' && all.length > 0 ? (
            <p className="q-page__sub">
              {pendingCount === 0 ? 'All caught up.' : `${pendingCount} waiting for your answer.`}
            </p>
          ) : null}
        </div>
      </header>
      <div className="list-toolbar">
        <SearchBox value={search} onChange={setSearch} placeholder="Search questions, names, dates" />
        {narrow ? <PendingToggle pendingOnly={pendingOnly} onToggle={() => setPendingOnly((p) => !p)} /> : null}
      </div>
      <ErrorBanner>{error}</ErrorBanner>
      <SuccessBanner message={success} className="q-page__success" />
      <ListBody
        list={list}
        total={all.length}
        shown={shown.length}
        emptyText="No questions yet. Share your profile link and the questions people ask you appear here."
        noMatchText={search.trim() ? `No questions match “${search.trim()}”.` : 'No pending questions.'}
      >
        {narrow ? (
          <QuestionCards label="Questions received" rows={shown} rowKey={questionId}>
            {(q) => (
              <>
                <div className="q-card__top">
                  <StatusTag pending={isPending(q)} />
                  <TipCell question={q} now={now} />
                </div>
                <p className="q-card__question">{q.question}</p>
                <p className="q-card__meta">
                  {askerName(q)} · <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time>
                  {isPending(q) ? null : q.displayOnProfile === false ? ' · Hidden from profile' : ' · On profile'}
                </p>
                <div className="row-actions">
                  {primary(q)}
                  {menu(q)}
                </div>
              </>
            )}
          </QuestionCards>
        ) : (
          <QuestionTable caption="Questions received" columns={columns} rows={shown} rowKey={questionId} />
        )}
      </ListBody>

      {open && current && user && open.kind === 'answer' ? (
        <AnswerModal question={current} replierName={user.name || 'Anonymous'} onAnswered={(q) => void answered(q)} onClose={() => setOpen(null)} />
      ) : null}
      {open && current && open.kind === 'view' ? (
        <ViewAnswerModal
          question={current}
          meta={`Asked by ${askerName(current)} · ${formatDate(current.createdAt)}`}
          editable
          onSaved={list.replace}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </section>
  );
}
