import type { Question } from '@ques/contracts/core';
import { useState } from 'react';
import { usePageHead } from '../../lib/head';
import { formatDate } from '../../lib/text';
import { deleteByReceiver } from './api';
import { CurateModal } from './CurateModal';
import { DisplayValue, RowMenu, type Column } from './list-parts';
import { questionId } from './lists';
import { QuestionListShell } from './QuestionListShell';
import { useAdminList } from './use-admin-list';
import { ViewAnswerModal } from './ViewAnswerModal';

export const CURATED_MESSAGES = {
  updateFailed: 'Could not update the Q&A. The list was reloaded.',
  deleteFailed: 'Could not delete the Q&A. The list was reloaded.',
  created: 'Your Q&A was added.',
} as const;

/** Questions Curated (spec §2): the owner's own Q&A entries; curate, view/edit, show or hide, delete. */
export default function QuestionsCuratedPage() {
  usePageHead('Questions Curated — Ques', 'Q&A you curated.', '/admin/questions-curated');
  const page = useAdminList('curated');
  const { list, user } = page;
  const [viewing, setViewing] = useState<string | null>(null);
  const [curating, setCurating] = useState(false);
  const current = viewing ? page.find(viewing) : undefined;

  const actions = (q: Question) => (
    <div className="row-actions">
      <button type="button" className="button button--ghost button--small" onClick={() => setViewing(questionId(q))}>
        View
      </button>
      <RowMenu
        subject={q.question}
        actions={[
          {
            label: q.displayOnProfile === false ? 'Show on profile' : 'Hide from profile',
            onSelect: () => void page.toggleDisplay(q, CURATED_MESSAGES.updateFailed),
          },
        ]}
        onDelete={() => void page.remove(q, { request: deleteByReceiver, failed: CURATED_MESSAGES.deleteFailed })}
      />
    </div>
  );

  const columns: Column[] = [
    { header: 'Question', className: 'q-table__question', cell: (q) => q.question },
    { header: 'Date Added', className: 'q-table__date', cell: (q) => <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time> },
    { header: 'Display on Profile', className: 'q-table__display', cell: (q) => <DisplayValue question={q} /> },
    { header: 'Actions', hideHeader: true, className: 'q-table__actions', cell: actions },
  ];

  return (
    <QuestionListShell
      title="Questions Curated"
      action={
        <button type="button" className="button button--primary" onClick={() => setCurating(true)}>
          Curate a New Q&amp;A
        </button>
      }
      page={page}
      searchPlaceholder="Search questions, dates"
      emptyText="No curated Q&A yet. Add the questions you are asked most, with your answers, to your public page."
      noMatchText={`No Q&A match “${page.search.trim()}”.`}
      label="Curated Q&A"
      columns={columns}
      card={(q) => (
        <>
          <p className="q-card__question">{q.question}</p>
          <p className="q-card__meta">
            Added <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time> · On profile: <DisplayValue question={q} />
          </p>
          {actions(q)}
        </>
      )}
    >
      {current ? (
        <ViewAnswerModal
          question={current}
          meta={`Curated · ${formatDate(current.createdAt)}`}
          editable
          onSaved={list.replace}
          onClose={() => setViewing(null)}
        />
      ) : null}
      {curating && user ? (
        <CurateModal
          user={user}
          onCreated={(q) => {
            list.prepend({ ...q, isCurated: true, toUsername: q.toUsername || user.username });
            page.showSuccess(CURATED_MESSAGES.created);
          }}
          onClose={() => setCurating(false)}
        />
      ) : null}
    </QuestionListShell>
  );
}
