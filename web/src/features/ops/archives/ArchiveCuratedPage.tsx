import { useState } from 'react';
import { OPS_MESSAGES, type ArchiveProfile, type Question } from '@ques/contracts/core';
import { ErrorBanner, SuccessBanner, useSuccessMessage } from '../../../components/Banner';
import { SaveActions } from '../../../components/SaveActions';
import {
  CuratedAnswerFields,
  CuratedQuestionFields,
  curatedQaErrors,
  type CuratedField,
  type SetOf,
} from '../../../components/CuratedQaFields';
import { useFieldErrors, type FieldWiring } from '../../../components/use-field-errors';
import { Checkbox } from '../../../components/Field';
import { errorText } from '../../../lib/api';
import { usePageHead } from '../../../lib/head';
import { Link, useParams } from 'react-router-dom';
import { useApiData } from '../../../lib/use-api-data';
import { useFormValues } from '../../../lib/use-form-values';
import { useSubmit } from '../../../components/use-submit';
import { ConfirmDialog, LoadedList } from '../desk/parts';
import {
  createCurated,
  deleteCurated,
  editCurated,
  fetchArchives,
  fetchCurated,
  showCurated,
  type CuratedInput,
} from './api';
import '../ops.css';
import '../desk/ops-desk.css';

const EMPTY: CuratedInput = {
  question: '',
  detail: '',
  answer: '',
  tags: [],
  source: '',
  displayOnProfile: true,
};
/** An archive's curated answer always names its source (issue 18). */
const SOURCE_RULE = {
  marker: 'required',
  hint: 'Required: a link, programme, timestamp or page the answer comes from.',
  message: OPS_MESSAGES.sourceRequired,
} as const;

/** The curate form's rules in the order the service checks them, the source required on an archive. */
/** The answer, tags and source as both console forms show them: the source required, pointing at the form's error. */
function ArchiveAnswerFields<V extends Pick<CuratedInput, 'answer' | 'tags' | 'source'>>(props: {
  values: V;
  set: SetOf<V>;
  field: (key: CuratedField) => FieldWiring;
}) {
  return <CuratedAnswerFields {...props} answerRows={5} sourceRule={SOURCE_RULE} />;
}

/** The console's curate rules: those of the owner's form, the source required on an archive. */
const archiveErrors = (input: Pick<CuratedInput, 'answer' | 'source'> & { question?: string }) =>
  curatedQaErrors(input, OPS_MESSAGES.sourceRequired);

/** /ops/archives/:id — one archive profile's curated Q&A (issue 18): add (source required), edit, show/hide, delete. */
export default function ArchiveCuratedPage() {
  const { id = '' } = useParams<{ id: string }>();
  const archive = useApiData(
    async (signal) => (await fetchArchives(signal)).find((a) => a.id === id) ?? null,
    [id],
  );
  const curated = useApiData((signal) => fetchCurated(id, signal), [id]);
  const [success, setSuccess] = useSuccessMessage();
  /** The curated Q&A whose deletion is being confirmed. */
  const [deleting, setDeleting] = useState<Question | null>(null);
  const who = archive.data ? `@${archive.data.username}` : 'an archive profile';
  usePageHead(
    `Curated Q&A of ${who} — Ques operators`,
    "An archive profile's curated Q&A.",
    `/ops/archives/${id}`,
  );

  const replace = (q: Question) =>
    curated.setData((list) => list.map((item) => (item.id === q.id ? q : item)));

  return (
    <section className="admin-page" aria-labelledby="ops-curated-title">
      <p>
        <Link to="/ops/archives" className="text-link">
          All archive profiles
        </Link>
      </p>
      <h1 className="admin-page__title" id="ops-curated-title">
        Curated Q&amp;A of {who}
      </h1>
      {archive.status === 'ready' && archive.data === null ? (
        <ErrorBanner>{OPS_MESSAGES.noSuchArchive}</ErrorBanner>
      ) : null}
      {archive.data ? <ArchiveSummary archive={archive.data} /> : null}
      <SuccessBanner message={success} />
      <CurateForm
        archiveId={id}
        onCreated={(q) => {
          curated.setData((list) => [q, ...list.filter((item) => item.id !== q.id)]);
          setSuccess('Curated Q&A added.');
        }}
      />
      <h2 className="ops-subtitle">Curated Q&amp;A</h2>
      <LoadedList
        data={curated}
        what="the curated Q&A"
        empty="No curated Q&A yet."
        label="Curated Q&A"
        className="ops-list"
      >
        {(q) => (
          <CuratedItem
            key={q.id}
            question={q}
            onChanged={(changed, message) => {
              replace(changed);
              setSuccess(message);
            }}
            onDelete={() => setDeleting(q)}
          />
        )}
      </LoadedList>
      {deleting ? (
        <ConfirmDialog
          title="Delete this curated Q&A?"
          confirmLabel="Delete"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await deleteCurated(deleting.id);
            curated.setData((list) => list.filter((item) => item.id !== deleting.id));
            setSuccess('Curated Q&A deleted.');
          }}
        >
          <p>“{deleting.question}” leaves the public page and cannot be restored.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function ArchiveSummary({ archive }: { archive: ArchiveProfile }) {
  return (
    <p className="muted">
      {archive.name} ·{' '}
      <a href={`/ask/${encodeURIComponent(archive.username)}`} className="text-link">
        public page
      </a>
      {archive.archiveProfile ? '' : ' · not marked as an archive: its Q&A cannot be curated here'}
    </p>
  );
}

function CurateForm({ archiveId, onCreated }: { archiveId: string; onCreated: (q: Question) => void }) {
  const { values, set, reset } = useFormValues<CuratedInput>(EMPTY);
  const form = useFieldErrors(() => archiveErrors(values));
  const { error, errorId, busy, onSubmit } = useSubmit({
    fields: form,
    run: async () => {
      const created = await createCurated(archiveId, {
        ...values,
        question: values.question.trim(),
        detail: values.detail.trim(),
        answer: values.answer.trim(),
        source: values.source.trim(),
      });
      reset();
      form.reset();
      onCreated(created);
    },
    failed: 'Failed to create curated question.',
    unreachable: 'Failed to create curated question. Please try again.',
  });

  return (
    <form className="ops-form ops-card" onSubmit={onSubmit} aria-labelledby="ops-curate-title" noValidate>
      <h2 className="ops-subtitle" id="ops-curate-title">
        Add a curated Q&amp;A
      </h2>
      <CuratedQuestionFields values={values} set={set} field={form.field} detailRows={2} />
      <ArchiveAnswerFields values={values} set={set} field={form.field} />
      <Checkbox checked={values.displayOnProfile} onChange={set('displayOnProfile')}>
        Show on profile
      </Checkbox>
      <SaveActions
        error={error}
        errorId={errorId}
        invalidCount={form.count}
        saving={busy}
        label="Add curated Q&A"
        className="ops-actions"
      />
    </form>
  );
}

function CuratedItem({
  question,
  onChanged,
  onDelete,
}: {
  question: Question;
  onChanged: (q: Question, message: string) => void;
  /** Asks to delete it (the page confirms). */
  onDelete: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError('');
    try {
      await work();
    } catch (err) {
      setError(errorText(err, 'That did not work.', 'That did not work: check your connection.'));
    } finally {
      setBusy(false);
    }
  };
  const toggle = () =>
    act(async () => {
      const changed = await showCurated(question.id, !question.displayOnProfile);
      onChanged(
        changed,
        changed.displayOnProfile ? 'Shown on the public page.' : 'Hidden from the public page.',
      );
    });

  return (
    <li className="ops-card ops-qa">
      <p className="ops-qa__question">{question.question}</p>
      {question.detail ? <p className="muted">{question.detail}</p> : null}
      {editing ? (
        <EditForm
          question={question}
          onCancel={() => setEditing(false)}
          onSaved={(q) => {
            setEditing(false);
            onChanged(q, 'Curated Q&A saved.');
          }}
        />
      ) : (
        <>
          <p>{question.answer}</p>
          <p className="ops-qa__source">Source: {question.source}</p>
          {question.tags.length > 0 ? <p className="muted">Tags: {question.tags.join(', ')}</p> : null}
          <p className="muted">
            {question.displayOnProfile ? 'Shown on the public page' : 'Not shown on the public page'}
          </p>
          <div className="ops-actions">
            <button
              type="button"
              className="button button--ghost"
              disabled={busy}
              onClick={() => setEditing(true)}
            >
              Edit <span className="visually-hidden">“{question.question}”</span>
            </button>
            <button
              type="button"
              className="button button--ghost"
              disabled={busy}
              onClick={() => void toggle()}
            >
              {question.displayOnProfile ? 'Hide from profile' : 'Show on profile'}{' '}
              <span className="visually-hidden">“{question.question}”</span>
            </button>
            <button type="button" className="button button--ghost" disabled={busy} onClick={onDelete}>
              Delete <span className="visually-hidden">“{question.question}”</span>
            </button>
          </div>
          <ErrorBanner>{error}</ErrorBanner>
        </>
      )}
    </li>
  );
}

function EditForm({
  question,
  onSaved,
  onCancel,
}: {
  question: Question;
  onSaved: (q: Question) => void;
  onCancel: () => void;
}) {
  const { values, set } = useFormValues({
    answer: question.answer,
    tags: question.tags,
    source: question.source,
  });
  const { answer, tags, source } = values;
  const form = useFieldErrors(() => archiveErrors({ answer, source }));
  const { error, errorId, busy, onSubmit } = useSubmit({
    fields: form,
    run: async () =>
      onSaved(await editCurated(question.id, { answer: answer.trim(), tags, source: source.trim() })),
    failed: 'The curated Q&A could not be saved.',
    unreachable: 'The curated Q&A could not be saved: check your connection.',
  });

  return (
    <form className="ops-form" onSubmit={onSubmit} aria-label={`Edit “${question.question}”`} noValidate>
      <ArchiveAnswerFields values={values} set={set} field={form.field} />
      <SaveActions error={error} errorId={errorId} invalidCount={form.count} saving={busy} label="Save changes" className="ops-actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </SaveActions>
    </form>
  );
}
