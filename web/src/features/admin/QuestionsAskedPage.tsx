import type { Question } from '@ques/contracts/core';
import { useState } from 'react';
import { usePageHead } from '../../lib/head';
import { useNavigate } from 'react-router-dom';
import { formatDate } from '../../lib/text';
import { createStatusLink, withdrawQuestion } from './api';
import { RowMenu, StatusTag, TipCell, type Column } from './list-parts';
import { isPending, questionId, recipientLabel } from './lists';
import { PendingQuestionListShell } from './QuestionListShell';
import { usePendingList } from './use-admin-list';
import { ViewAnswerModal } from './ViewAnswerModal';

export const ASKED_MESSAGES = {
  deleteFailed: 'Could not delete the question. The list was reloaded.',
  withdrawn: 'Question withdrawn.',
  tipReleased: (amount: string) => `Question withdrawn. Your ${amount} tip was released: you are not charged.`,
} as const;

/** Questions Asked (spec §2): what the owner asked others; view answers, withdraw a pending one (its tip released). */
export default function QuestionsAskedPage() {
  usePageHead('Questions Asked — Ques', 'Questions you asked.', '/admin/questions-asked');
  const page = usePendingList('asker');
  const [viewing, setViewing] = useState<string | null>(null);
  const current = viewing ? page.find(viewing) : undefined;

  const remove = (q: Question) =>
    page.remove(q, {
      request: withdrawQuestion,
      failed: ASKED_MESSAGES.deleteFailed,
      succeeded: (tip) => (tip ? ASKED_MESSAGES.tipReleased(tip) : ASKED_MESSAGES.withdrawn),
    });

  const actions = (q: Question) => {
    const id = questionId(q);
    return isPending(q) ? (
      <div className="row-actions">
        {/* The recipient removed it from their inbox: it will not be answered (its tip, if any, was released). */}
        <span className="muted row-actions__note">{q.deletedByReceiver ? 'Removed by recipient' : 'Awaiting answer'}</span>
        <StatusPageButton questionId={id} />
        <RowMenu subject={q.question} actions={[]} onDelete={() => void remove(q)} disabled={page.busy.has(id)} />
      </div>
    ) : (
      <div className="row-actions">
        <button type="button" className="button button--ghost button--small" onClick={() => setViewing(id)}>
          View answer
        </button>
        <StatusPageButton questionId={id} />
      </div>
    );
  };

  const askedTo = (q: Question) => (
    <span className="party">
      <span className="party__name">{recipientLabel(q)}</span>
      {q.toUsername ? <span className="party__handle" title={`@${q.toUsername}`}>@{q.toUsername}</span> : null}
    </span>
  );

  const columns: Column[] = [
    { header: 'Question', className: 'q-table__question', cell: (q) => q.question },
    { header: 'Asked To', className: 'q-table__party', cell: askedTo },
    { header: 'Date', className: 'q-table__date', cell: (q) => <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time> },
    { header: 'Tip', className: 'q-table__tip', cell: (q) => <TipCell question={q} now={page.now} /> },
    { header: 'Status', className: 'q-table__status', cell: (q) => <StatusTag question={q} /> },
    { header: 'Actions', hideHeader: true, className: 'q-table__actions', cell: actions },
  ];

  return (
    <PendingQuestionListShell
      title="Questions Asked"
      page={page}
      emptyText="You have not asked anyone a question yet."
      label="Questions asked"
      columns={columns}
      meta={(q) => (
        <>
          To {recipientLabel(q)} · <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time>
        </>
      )}
      actions={actions}
    >
      {current ? (
        <ViewAnswerModal
          question={current}
          meta={`Asked to ${recipientLabel(current)} · ${formatDate(current.createdAt)}`}
          editable={false}
          onClose={() => setViewing(null)}
        />
      ) : null}
    </PendingQuestionListShell>
  );
}

/** The asker's private status page (issue 14): the same page a guest reaches from the e-mailed link. */
function StatusPageButton({ questionId: id }: { questionId: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button button--ghost button--small"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        createStatusLink(id)
          .then((link) => navigate(link.url))
          .catch(() => setBusy(false));
      }}
    >
      Status page
    </button>
  );
}
