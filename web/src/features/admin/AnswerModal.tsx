import { useId, useState, type FormEvent } from 'react';
import { Modal } from '../../components/Modal';
import { ErrorBanner } from '../../components/Banner';
import { TagInput } from '../../components/TagInput';
import { errorText } from '../../lib/api';
import { formatDate } from '../../lib/text';
import { postAnswer, type AdminQuestion } from './api';
import { askerName, questionId, tipView } from './lists';

export const ANSWER_MESSAGES = {
  required: 'Answer is required',
  invalidId: 'Invalid question ID',
  failed: 'Failed to post answer',
  network: 'Failed to post answer. Please try again.',
} as const;

interface AnswerModalProps {
  question: AdminQuestion;
  /** The name the answer is signed with (spec §7: the owner's name, or "Anonymous"). */
  replierName: string;
  /** The posted answer, as the server returned it. The modal closes itself afterwards. */
  onAnswered: (updated: AdminQuestion) => void;
  onClose: () => void;
}

/** Answer a received question (spec §2 modals, §5 answer rules): answer required, show on profile by default, tags. */
export function AnswerModal({ question, replierName, onAnswered, onClose }: AnswerModalProps) {
  const ids = { answer: useId(), error: useId() };
  const [answer, setAnswer] = useState('');
  const [tags, setTags] = useState<string[]>(question.tags ?? []);
  const [displayOnProfile, setDisplayOnProfile] = useState(true);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const tip = tipView(question, Date.now());

  const submit = async (e: FormEvent, close: () => void) => {
    e.preventDefault();
    if (busy) return;
    setError('');
    if (!answer.trim()) {
      setError(ANSWER_MESSAGES.required);
      return;
    }
    const id = questionId(question);
    if (!id) {
      setError(ANSWER_MESSAGES.invalidId);
      return;
    }
    setBusy(true);
    try {
      const updated = await postAnswer(id, {
        answer: answer.trim(),
        displayOnProfile,
        replierName: replierName.trim() || 'Anonymous',
        tags,
      });
      onAnswered({ ...question, answer: answer.trim(), tags, displayOnProfile, status: 'Answered', ...(updated ?? {}) });
      close();
    } catch (err) {
      setError(errorText(err, ANSWER_MESSAGES.failed, ANSWER_MESSAGES.network));
      setBusy(false);
    }
  };

  return (
    <Modal title="Answer question" onClose={onClose} className="qa-modal" initialFocusSelector="textarea">
      {(requestClose) => (
        <form className="qa-form" noValidate onSubmit={(e) => void submit(e, requestClose)}>
          <QuestionSummary question={question} meta={`Asked by ${askerName(question)} · ${formatDate(question.createdAt)}`} />
          {tip ? (
            <p className="qa-form__tip">
              Tip {tip.amount} — {tip.state.toLowerCase()}
              {tip.detail ? ` (${tip.detail.toLowerCase()})` : ''}.{' '}
              {tip.tone === 'held' ? 'It is captured when you post your answer.' : null}
            </p>
          ) : null}
          <div className="field">
            <label htmlFor={ids.answer} className="field__label">
              Your answer <span className="field__required">(required)</span>
            </label>
            <textarea
              id={ids.answer}
              className="input input--area qa-form__answer"
              rows={7}
              value={answer}
              aria-invalid={error === ANSWER_MESSAGES.required ? true : undefined}
              aria-describedby={error ? ids.error : undefined}
              onChange={(e) => setAnswer(e.target.value)}
            />
          </div>
          <TagInput tags={tags} onChange={setTags} />
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
              {busy ? 'Posting…' : 'Post Answer'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/** The question being answered or viewed: title, optional detail, a meta line. */
export function QuestionSummary({ question, meta }: { question: AdminQuestion; meta?: string }) {
  return (
    <div className="qa-summary">
      {meta ? <p className="qa-summary__meta">{meta}</p> : null}
      <p className="qa-summary__question">{question.question}</p>
      {question.detail?.trim() ? <p className="qa-summary__detail">{question.detail}</p> : null}
    </div>
  );
}
