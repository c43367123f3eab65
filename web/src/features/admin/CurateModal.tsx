import { useId, useState, type FormEvent } from 'react';
import { Modal } from '../../components/Modal';
import { ErrorBanner } from '../../components/Banner';
import { TagInput } from '../../components/TagInput';
import { errorText } from '../../lib/api';
import type { User } from '../../lib/api';
import { createCurated, type AdminQuestion } from './api';

export const CURATE_MESSAGES = {
  titleRequired: 'Question title is required.',
  answerRequired: 'Answer is required.',
  failed: 'Failed to create curated question.',
  network: 'Failed to create curated question. Please try again.',
} as const;

interface CurateModalProps {
  user: User;
  onCreated: (question: AdminQuestion) => void;
  onClose: () => void;
}

/**
 * Curate a Q&A for the owner's own page (spec §2 "Curate modal", §5 curate rules): title and answer required;
 * description, tags, and — on archive profiles only — a source; shown on the profile by default.
 */
export function CurateModal({ user, onCreated, onClose }: CurateModalProps) {
  const ids = { title: useId(), detail: useId(), answer: useId(), source: useId(), error: useId() };
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
      setError(errorText(err, CURATE_MESSAGES.failed, CURATE_MESSAGES.network));
      setBusy(false);
    }
  };

  const invalid = (which: 'title' | 'answer') =>
    (which === 'title' ? error === CURATE_MESSAGES.titleRequired : error === CURATE_MESSAGES.answerRequired) || undefined;

  return (
    <Modal title="Curate a New Q&A" onClose={onClose} className="qa-modal">
      {(requestClose) => (
        <form className="qa-form" noValidate onSubmit={(e) => void submit(e, requestClose)}>
          <div className="field">
            <label htmlFor={ids.title} className="field__label">
              Question title <span className="field__required">(required)</span>
            </label>
            <input
              id={ids.title}
              className="input"
              type="text"
              maxLength={300}
              value={question}
              aria-invalid={invalid('title')}
              aria-describedby={error ? ids.error : undefined}
              onChange={(e) => setQuestion(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.detail} className="field__label">
              Description <span className="field__optional">(optional)</span>
            </label>
            <textarea
              id={ids.detail}
              className="input input--area"
              rows={3}
              maxLength={5000}
              value={detail}
              onChange={(e) => setDetail(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.answer} className="field__label">
              Answer <span className="field__required">(required)</span>
            </label>
            <textarea
              id={ids.answer}
              className="input input--area qa-form__answer"
              rows={6}
              value={answer}
              aria-invalid={invalid('answer')}
              aria-describedby={error ? ids.error : undefined}
              onChange={(e) => setAnswer(e.target.value)}
            />
          </div>
          <TagInput tags={tags} onChange={setTags} />
          {archive ? (
            <div className="field">
              <label htmlFor={ids.source} className="field__label">
                Source <span className="field__optional">(optional)</span>
              </label>
              <input
                id={ids.source}
                className="input"
                type="text"
                maxLength={1000}
                placeholder="Interview, podcast or post this answer comes from"
                value={source}
                onChange={(e) => setSource(e.target.value)}
              />
            </div>
          ) : null}
          <label className="checkbox">
            <input type="checkbox" checked={displayOnProfile} onChange={(e) => setDisplayOnProfile(e.target.checked)} />
            <span>Show on profile</span>
          </label>
          <ErrorBanner id={ids.error}>{error}</ErrorBanner>
          <div className="qa-form__footer">
            <button type="button" className="button button--ghost" onClick={requestClose}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Saving…' : 'Save Q&A'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
