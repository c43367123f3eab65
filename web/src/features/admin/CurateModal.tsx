import { useId, useState, type FormEvent } from 'react';
import { CURATE_MESSAGES, QUESTION_LIMITS, type Question, type User } from '@ques/contracts/core';
import { ErrorBanner } from '../../components/Banner';
import { Checkbox, InputField, TextAreaField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { TagInput } from '../../components/TagInput';
import { errorText } from '../../lib/api';
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
  const [question, setQuestion] = useState('');
  const [detail, setDetail] = useState('');
  const [answer, setAnswer] = useState('');
  const [source, setSource] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [displayOnProfile, setDisplayOnProfile] = useState(true);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent, close: () => void) => {
    e.preventDefault();
    if (busy) return;
    setError('');
    if (!question.trim()) {
      setError(CURATE_MESSAGES.titleRequired);
      return;
    }
    if (!answer.trim()) {
      setError(CURATE_MESSAGES.answerRequired);
      return;
    }
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

  const describedBy = error ? errorId : undefined;

  return (
    <Modal title="Curate a New Q&A" onClose={onClose} className="qa-modal">
      {(requestClose) => (
        <form className="qa-form" noValidate onSubmit={(e) => void submit(e, requestClose)}>
          <InputField
            label="Question title"
            marker="required"
            invalid={error === CURATE_MESSAGES.titleRequired}
            describedBy={describedBy}
            type="text"
            maxLength={QUESTION_LIMITS.question}
            value={question}
            onChange={setQuestion}
          />
          <TextAreaField label="Description" marker="optional" rows={3} maxLength={QUESTION_LIMITS.detail} value={detail} onChange={setDetail} />
          <TextAreaField
            label="Answer"
            marker="required"
            invalid={error === CURATE_MESSAGES.answerRequired}
            describedBy={describedBy}
            className="input input--area qa-form__answer"
            rows={6}
            value={answer}
            onChange={setAnswer}
          />
          <TagInput tags={tags} onChange={setTags} />
          {archive ? (
            <InputField
              label="Source"
              marker="optional"
              type="text"
              maxLength={QUESTION_LIMITS.source}
              placeholder="Interview, podcast or post this answer comes from"
              value={source}
              onChange={setSource}
            />
          ) : null}
          <Checkbox checked={displayOnProfile} onChange={setDisplayOnProfile}>
            Show on profile
          </Checkbox>
          <ErrorBanner id={errorId}>{error}</ErrorBanner>
          <FormFooter onCancel={requestClose} busy={busy} submit="Save Q&A" submitting="Saving…" />
        </form>
      )}
    </Modal>
  );
}
