import { useMemo, useState } from 'react';
import { ErrorBanner, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { errorText } from '../../lib/api';
import { useDocumentHead } from '../../lib/head';
import { formatDate } from '../../lib/text';
import { useAuth } from '../auth/auth-context';
import { cancelPayment, withdrawQuestion, type AdminQuestion } from './api';
import {
  ListBody,
  PendingToggle,
  QuestionCards,
  QuestionTable,
  RowMenu,
  SearchBox,
  StatusTag,
  TipCell,
  type Column,
} from './list-parts';
import { formatDollars, isPending, listFor, matchesSearch, needsCancelPayment, questionId, recipientLabel } from './lists';
import { useNarrowScreen, useNow, useQuestionList } from './use-question-list';
import { ViewAnswerModal } from './ViewAnswerModal';

export const ASKED_MESSAGES = {
  deleteFailed: 'Could not delete the question. The list was reloaded.',
  cancelFailed: 'Failed to cancel the payment.',
  notDeleted: 'The question was not deleted.',
  withdrawn: 'Question withdrawn.',
  tipReleased: (amount: string) => `Question withdrawn. Your ${amount} tip was released: you are not charged.`,
} as const;

/** Questions Asked (spec §2): what the owner asked others; view answers, withdraw a pending one (its tip released). */
export default function QuestionsAskedPage() {
  useDocumentHead({ title: 'Questions Asked — Ques', description: 'Questions you asked.', canonical: '/admin/questions-asked' });
  const { user } = useAuth();
  const list = useQuestionList('asker');
  const narrow = useNarrowScreen();
  const now = useNow();
  const [search, setSearch] = useState('');
  const [pendingOnly, setPendingOnly] = useState(false);
  const [viewing, setViewing] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [success, showSuccess] = useSuccessMessage();

  const username = user?.username ?? '';
  const email = user?.email ?? '';
  const all = useMemo(() => listFor('asker', list.items, { username, email }), [list.items, username, email]);
  const shown = all.filter((q) => matchesSearch('asker', q, search) && (!narrow || !pendingOnly || isPending(q)));
  const current = viewing ? all.find((q) => questionId(q) === viewing) : undefined;

  // A pending tipped question: the hold on the card is released first; if that fails the question stays.
  const remove = async (q: AdminQuestion) => {
    const id = questionId(q);
    setError('');
    showSuccess('');
    const tipped = needsCancelPayment(q);
    if (tipped) {
      setBusy(id);
      try {
        await cancelPayment(id);
      } catch (err) {
        setBusy(null);
        setError(`${errorText(err, ASKED_MESSAGES.cancelFailed, ASKED_MESSAGES.cancelFailed)} ${ASKED_MESSAGES.notDeleted}`);
        return;
      }
      setBusy(null);
    }
    list.remove(id);
    try {
      await withdrawQuestion(id);
      showSuccess(tipped ? ASKED_MESSAGES.tipReleased(formatDollars(q.tip ?? 0)) : ASKED_MESSAGES.withdrawn);
    } catch (err) {
      console.warn('Withdrawing the question failed', err);
      setError(ASKED_MESSAGES.deleteFailed);
      await list.reload();
    }
  };

  const actions = (q: AdminQuestion) => {
    const id = questionId(q);
    return isPending(q) ? (
      <div className="row-actions">
        {/* The recipient removed it from their inbox: it will not be answered (its tip, if any, was released). */}
        <span className="muted row-actions__note">{q.deletedByReceiver ? 'Removed by recipient' : 'Awaiting answer'}</span>
        <RowMenu subject={q.question} actions={[]} onDelete={() => void remove(q)} disabled={busy === id} />
      </div>
    ) : (
      <div className="row-actions">
        <button type="button" className="button button--ghost button--small" onClick={() => setViewing(id)}>
          View answer
        </button>
      </div>
    );
  };

  const askedTo = (q: AdminQuestion) => (
    <span className="party">
      <span className="party__name">{recipientLabel(q)}</span>
      {q.toUsername ? <span className="party__handle" title={`@${q.toUsername}`}>@{q.toUsername}</span> : null}
    </span>
  );

  const columns: Column[] = [
    { header: 'Question', className: 'q-table__question', cell: (q) => q.question },
    { header: 'Asked To', className: 'q-table__party', cell: askedTo },
    { header: 'Date', className: 'q-table__date', cell: (q) => <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time> },
    { header: 'Tip', className: 'q-table__tip', cell: (q) => <TipCell question={q} now={now} /> },
    { header: 'Tag', cell: (q) => <StatusTag pending={isPending(q)} /> },
    { header: 'Actions', hideHeader: true, className: 'q-table__actions', cell: actions },
  ];

  return (
    <section className="admin-page q-page">
      <header className="q-page__head">
        <h1 className="admin-page__title">Questions Asked</h1>
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
        emptyText="You have not asked anyone a question yet."
        noMatchText={search.trim() ? `No questions match “${search.trim()}”.` : 'No pending questions.'}
      >
        {narrow ? (
          <QuestionCards label="Questions asked" rows={shown} rowKey={questionId}>
            {(q) => (
              <>
                <div className="q-card__top">
                  <StatusTag pending={isPending(q)} />
                  <TipCell question={q} now={now} />
                </div>
                <p className="q-card__question">{q.question}</p>
                <p className="q-card__meta">
                  To {recipientLabel(q)} · <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time>
                </p>
                {actions(q)}
              </>
            )}
          </QuestionCards>
        ) : (
          <QuestionTable caption="Questions asked" columns={columns} rows={shown} rowKey={questionId} />
        )}
      </ListBody>

      {current ? (
        <ViewAnswerModal
          question={current}
          meta={`Asked to ${recipientLabel(current)} · ${formatDate(current.createdAt)}`}
          editable={false}
          onClose={() => setViewing(null)}
        />
      ) : null}
    </section>
  );
}
