import { useMemo, useState } from 'react';
import { ErrorBanner, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { useDocumentHead } from '../../lib/head';
import { formatDate } from '../../lib/text';
import { useAuth } from '../auth/auth-context';
import { deleteByReceiver, setDisplayOnProfile, type AdminQuestion } from './api';
import { CurateModal } from './CurateModal';
import { DisplayValue, ListBody, QuestionCards, QuestionTable, RowMenu, SearchBox, type Column } from './list-parts';
import { listFor, matchesSearch, questionId } from './lists';
import { useNarrowScreen, useQuestionList } from './use-question-list';
import { ViewAnswerModal } from './ViewAnswerModal';

export const CURATED_MESSAGES = {
  updateFailed: 'Could not update the Q&A. The list was reloaded.',
  deleteFailed: 'Could not delete the Q&A. The list was reloaded.',
  created: 'Your Q&A was added.',
} as const;

/** Questions Curated (spec §2): the owner's own Q&A entries; curate, view/edit, show or hide, delete. */
export default function QuestionsCuratedPage() {
  useDocumentHead({ title: 'Questions Curated — Ques', description: 'Q&A you curated.', canonical: '/admin/questions-curated' });
  const { user } = useAuth();
  const list = useQuestionList('curated');
  const narrow = useNarrowScreen();
  const [search, setSearch] = useState('');
  const [viewing, setViewing] = useState<string | null>(null);
  const [curating, setCurating] = useState(false);
  const [error, setError] = useState('');
  const [success, showSuccess] = useSuccessMessage();

  const username = user?.username ?? '';
  const email = user?.email ?? '';
  const all = useMemo(() => listFor('curated', list.items, { username, email }), [list.items, username, email]);
  const shown = all.filter((q) => matchesSearch('curated', q, search));
  const current = viewing ? all.find((q) => questionId(q) === viewing) : undefined;

  const toggleDisplay = async (q: AdminQuestion) => {
    const id = questionId(q);
    const next = q.displayOnProfile === false;
    setError('');
    list.update(id, { displayOnProfile: next });
    try {
      await setDisplayOnProfile(id, next);
    } catch (err) {
      console.warn('Changing the display setting failed', err);
      setError(CURATED_MESSAGES.updateFailed);
      await list.reload();
    }
  };

  const remove = async (q: AdminQuestion) => {
    const id = questionId(q);
    setError('');
    list.remove(id);
    try {
      await deleteByReceiver(id);
    } catch (err) {
      console.warn('Deleting the Q&A failed', err);
      setError(CURATED_MESSAGES.deleteFailed);
      await list.reload();
    }
  };

  const actions = (q: AdminQuestion) => (
    <div className="row-actions">
      <button type="button" className="button button--ghost button--small" onClick={() => setViewing(questionId(q))}>
        View
      </button>
      <RowMenu
        subject={q.question}
        actions={[
          {
            label: q.displayOnProfile === false ? 'Show on profile' : 'Hide from profile',
            onSelect: () => void toggleDisplay(q),
          },
        ]}
        onDelete={() => void remove(q)}
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
    <section className="admin-page q-page">
      <header className="q-page__head">
        <h1 className="admin-page__title">Questions Curated</h1>
        <button type="button" className="button button--primary" onClick={() => setCurating(true)}>
          Curate a New Q&amp;A
        </button>
      </header>
      <SuccessBanner message={success} className="q-page__success" />
      <div className="list-toolbar">
        <SearchBox value={search} onChange={setSearch} placeholder="Search questions, dates" />
      </div>
      <ErrorBanner>{error}</ErrorBanner>
      <ListBody
        list={list}
        total={all.length}
        shown={shown.length}
        emptyText="No curated Q&A yet. Add the questions you are asked most, with your answers, to your public page."
        noMatchText={`No Q&A match “${search.trim()}”.`}
      >
        {narrow ? (
          <QuestionCards label="Curated Q&A" rows={shown} rowKey={questionId}>
            {(q) => (
              <>
                <p className="q-card__question">{q.question}</p>
                <p className="q-card__meta">
                  Added <time dateTime={q.createdAt}>{formatDate(q.createdAt)}</time> · On profile: <DisplayValue question={q} />
                </p>
                {actions(q)}
              </>
            )}
          </QuestionCards>
        ) : (
          <QuestionTable caption="Curated Q&A" columns={columns} rows={shown} rowKey={questionId} />
        )}
      </ListBody>

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
            showSuccess(CURATED_MESSAGES.created);
          }}
          onClose={() => setCurating(false)}
        />
      ) : null}
    </section>
  );
}
