import { useId, useState, type FormEvent } from 'react';
import type { Question, User } from '@ques/contracts/core';
import { ErrorBanner } from '../../components/Banner';
import { CuratedAnswerFields, CuratedQuestionFields, curatedQaErrors } from '../../components/CuratedQaFields';
import { ErrorSummary } from '../../components/ErrorSummary';
import { useFieldErrors } from '../../components/use-field-errors';
import { Checkbox } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { errorText } from '../../lib/api';
import { useFormValues } from '../../lib/use-form-values';
import { createCurated } from './api';
import { FormFooter } from './qa-form';

/** Spec §8: what a failed create says (the form's own rules use the shared CURATE_MESSAGES). */
const CREATE_FAILED = {
  server: 'Failed to create curated question.',
  network: 'Failed to create curated question. Please try again.',
} as const;

interface CurateModalProps {
  user: User;
  onCreated: (question: Question) => void;
  onClose: () => void;
}

/**
 * Curate a Q&A for the owner's own page (spec §2 "Curate modal", §5 curate rules): title and answer required;
 * description, tags, and — on archive profiles only — a source; shown on the profile by default.
 */
export function CurateModal({ user, onCreated, onClose }: CurateModalProps) {
  const errorId = useId();
  const archive = user.archiveProfile === true;
  const { values, set } = useFormValues({
    question: '',
    detail: '',
    answer: '',
    source: '',
    tags: [] as string[],
    displayOnProfile: true,
  });
  const { question, detail, answer, source, tags, displayOnProfile } = values;
  const [error, setError] = useState('');
  const form = useFieldErrors(() => curatedQaErrors(values));
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent, close: () => void) => {
    e.preventDefault();
    if (busy) return;
    setError('');
    if (!form.attempt()) return;
    setBusy(true);
    try {
      const created = await createCurated({
        question: question.trim(),
        detail: detail.trim(),
        answer: answer.trim(),
        source: archive ? source.trim() : '',
        displayOnProfile,
        isCurated: true,
        tip: 0,
        yourName: user.name,
        yourEmail: user.email,
        toUsername: user.username,
        fromUsername: user.username,
        tags,
      });
      onCreated(created);
      close();
    } catch (err) {
      setError(errorText(err, CREATE_FAILED.server, CREATE_FAILED.network));
      setBusy(false);
    }
  };

  return (
    <Modal title="Curate a New Q&A" onClose={onClose} className="qa-modal">
      {(requestClose) => (
        <form className="qa-form" noValidate onSubmit={(e) => void submit(e, requestClose)}>
          <CuratedQuestionFields
            values={values}
            set={set}
            field={form.field}
            detailRows={3}
          />
          <CuratedAnswerFields
            values={values}
            set={set}
            field={form.field}
            answerRows={6}
            answerClassName="input input--area qa-form__answer"
            sourceRule={
              archive
                ? { marker: 'optional', placeholder: 'Interview, podcast or post this answer comes from' }
                : null
            }
          />
          <Checkbox checked={displayOnProfile} onChange={set('displayOnProfile')}>
            Show on profile
          </Checkbox>
          <ErrorSummary count={form.count} />
          <ErrorBanner id={errorId}>{error}</ErrorBanner>
          <FormFooter onCancel={requestClose} busy={busy} submit="Save Q&A" submitting="Saving…" />
        </form>
      )}
    </Modal>
  );
}
