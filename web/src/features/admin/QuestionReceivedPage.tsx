import type { Question } from '@ques/contracts/core';
import { useEffect, useState } from 'react';
import { errorText } from '../../lib/api';
import { usePageHead } from '../../lib/head';
import { useSearchParams } from 'react-router-dom';
import { formatDate } from '../../lib/text';
import { OwnerTrustStats } from '../../components/TrustStats';
import { fetchMyTrustStats } from '../../lib/trust-stats';
import { useApiData } from '../../lib/use-api-data';
import { useToast } from '../../components/Toast';
import { blockAsker, deleteByReceiver, finalizePayment } from './api';
import { AnswerModal } from './AnswerModal';
import { DisplayValue, HiddenByQues, RowMenu, StatusTag, TipCell, type Column, type MenuAction } from './list-parts';
import { askerName, isPending, isWithdrawn, needsFinalize, ownerShare, questionId } from './lists';
import { PendingQuestionListShell } from './QuestionListShell';
import { usePendingList } from './use-admin-list';
import { ViewAnswerModal } from './ViewAnswerModal';

export const INBOX_MESSAGES = {
  updateFailed: 'Could not update the question. The list was reloaded.',
  deleteFailed: 'Could not delete the question. The list was reloaded.',
  finalizeFailed: 'Failed to finalize payment',
  deleted: 'Question deleted.',
  tipReleased: (amount: string) => `Question deleted. The ${amount} tip was released: the asker is not charged.`,
  blocked: (name: string) => `${name} is blocked: their next questions to you are refused. You can lift the block in Account Settings.`,
  blockFailed: 'Could not block this asker. Please try again.',
  answered: 'Answer posted.',
  answerSaved: 'Answer saved.',
  answeredEarned: (share: string) => `Answer posted — you earned ${share}`,
} as const;

type Open = { kind: 'answer' | 'view'; id: string } | null;

/** Question Received, the owner's inbox (spec §2, §4, §5): search, table or cards, reply, view, hide/show, delete. */
export default function QuestionReceivedPage() {
  const trust = useApiData((signal) => fetchMyTrustStats(signal), []);
  usePageHead('Question Received — Ques', 'Questions people asked you.', '/admin');
  const page = usePendingList('receiver', { onChanged: () => void trust.reload() });
  const toast = useToast();
  const { list, user, busy } = page;
  const [open, setOpen] = useState<Open>(null);
  const pendingCount = page.all.filter(isPending).length;
  const current = open ? page.find(open.id) : undefined;

  // A reminder e-mail's link (`/admin?answer={id}`, issue 16) opens that question's answer form once the list is in
  // (once per link: the parameter is removed).
  const [params, setParams] = useSearchParams();
  const answerLink = params.get('answer');
  useEffect(() => {
    if (!answerLink || list.status !== 'ready') return;
    const linked = page.find(answerLink);
    if (linked && isPending(linked)) setOpen({ kind: 'answer', id: questionId(linked) });
    setParams(
      (p) => {
        p.delete('answer');
        return p;
      },
      { replace: true },
    );
  }, [answerLink, list.status]);

  const remove = (q: Question) =>
    page.remove(q, {
      request: deleteByReceiver,
      failed: INBOX_MESSAGES.deleteFailed,
      succeeded: (tip) => (tip ? INBOX_MESSAGES.tipReleased(tip) : INBOX_MESSAGES.deleted),
    });

  // Spec §4: after answering a tipped question its payment is finalized; a failure shows its message, the answer stays.
  // Issue 28: a toast confirms it — with the owner's share when the tip was captured — and the record card refreshes.
  const answered = async (updated: Question) => {
    list.replace(updated);
    const id = questionId(updated);
    let earned: string | null = null;
    if (needsFinalize(updated)) {
      try {
        const result = await finalizePayment(id);
        if (result?.status === 'captured' || result?.status === 'capturing') {
          list.update(id, { tipStatus: result.status });
          earned = ownerShare(updated.tip ?? 0);
        }
      } catch (err) {
        page.setError(errorText(err, INBOX_MESSAGES.finalizeFailed, INBOX_MESSAGES.finalizeFailed));
      }
    }
    toast(earned ? INBOX_MESSAGES.answeredEarned(earned) : INBOX_MESSAGES.answered);
    void trust.reload();
  };

  const primary = (q: Question) => {
    const id = questionId(q);
    if (isWithdrawn(q)) return null;
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

  // Issue 16: refuses the asker's next questions (account, e-mail, this browser) before any card is held.
  const block = async (q: Question) => {
    try {
      const made = await blockAsker(questionId(q));
      page.showSuccess(INBOX_MESSAGES.blocked(made.label || askerName(q)));
    } catch (err) {
      page.setError(errorText(err, INBOX_MESSAGES.blockFailed, INBOX_MESSAGES.blockFailed));
    }
  };

  const menu = (q: Question) => {
    // Pending: Reply is the row's button, the menu holds Block and Delete. Answered: hide/show, Block and Delete.
    // Withdrawn by the asker (issue 14): nothing left to do with it (it is not theirs to delete either).
    if (isWithdrawn(q)) return null;
    const actions: MenuAction[] = [
      ...(isPending(q) || q.isPrivate || q.hiddenByOperator
        ? []
        : [
            {
              label: q.displayOnProfile === false ? 'Show on profile' : 'Hide from profile',
              onSelect: () => void page.toggleDisplay(q, INBOX_MESSAGES.updateFailed),
            },
          ]),
      { label: 'Block this asker', onSelect: () => void block(q) },
    ];
    return <RowMenu subject={q.question} actions={actions} onDelete={() => void remove(q)} disabled={busy.has(questionId(q))} />;
  };

  const actions = (q: Question) => (
    <div className="row-actions">
      {primary(q)}
      {menu(q)}
    </div>
  );

  const columns: Column[] = [
    {
      header: 'Question',
      className: 'q-table__question',
      cell: (q) => (
        <>
          {q.question}
          <HiddenByQues question={q} />
        </>
      ),
    },
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
    { header: 'Tip', className: 'q-table__tip', cell: (q) => <TipCell question={q} now={page.now} /> },
    { header: 'Status', className: 'q-table__status', cell: (q) => <StatusTag question={q} /> },
    { header: 'Display on Profile', className: 'q-table__display', cell: (q) => (isPending(q) || isWithdrawn(q) ? <span className="muted">—</span> : <DisplayValue question={q} />) },
    { header: 'Actions', hideHeader: true, className: 'q-table__actions', cell: actions },
  ];

  return (
    <PendingQuestionListShell
      title="Question Received"
      subtitle={
        <>
          {list.status === 'ready' && page.all.length > 0 ? (
            <p className="q-page__sub">{pendingCount === 0 ? 'All caught up.' : `${pendingCount} waiting for your answer.`}</p>
          ) : null}
          {/* Issue 15: the same figures visitors see (or will), with what they mean. */}
          {trust.data ? <OwnerTrustStats stats={trust.data} /> : null}
        </>
      }
      page={page}
      emptyText="No questions yet. Share your profile link and the questions people ask you appear here."
      label="Questions received"
      columns={columns}
      meta={(q) => (
        <>
          {askerName(q)} · <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time>
          {isPending(q) || isWithdrawn(q) ? null : q.isPrivate ? ' · Private' : q.displayOnProfile === false ? ' · Hidden from profile' : ' · On profile'}
          <HiddenByQues question={q} />
        </>
      )}
      actions={actions}
    >
      {current && user && open?.kind === 'answer' ? (
        <AnswerModal question={current} replierName={user.name || 'Anonymous'} onAnswered={(q) => void answered(q)} onClose={() => setOpen(null)} />
      ) : null}
      {current && open?.kind === 'view' ? (
        <ViewAnswerModal
          question={current}
          meta={`Asked by ${askerName(current)} · ${formatDate(current.createdAt)}`}
          editable
          onSaved={(q) => {
            list.replace(q);
            toast(INBOX_MESSAGES.answerSaved);
          }}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </PendingQuestionListShell>
  );
}
