import type { Question } from '@ques/contracts/core';
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../components/Banner';
import { ErrorSummary } from '../../components/ErrorSummary';
import { Checkbox, InputField, TextAreaField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { TagInput } from '../../components/TagInput';
import { errorText } from '../../lib/api';
import { formatDate } from '../../lib/text';
import { postAnswer } from './api';
import { askerName, tipView } from './lists';
import { AnswerField, FormFooter, QuestionSummary, useAnswerForm } from './qa-form';

/** The redacted public question may not be blank. */
export const PUBLIC_QUESTION_REQUIRED = 'Public question is required';

/** Spec §8: what a failed answer says. */
const POST_FAILED = { server: 'Failed to post answer', network: 'Failed to post answer. Please try again.' } as const;

interface AnswerModalProps {
  question: Question;
  /** The name the answer is signed with (spec §7: the owner's name, or "Anonymous"). */
  replierName: string;
  /** The posted answer, as the server returned it. The modal closes itself afterwards. */
  onAnswered: (updated: Question) => void;
  onClose: () => void;
}

/** Answer a received question (spec §2 modals, §5 answer rules): answer required, show on profile by default, tags. */
export function AnswerModal({ question, replierName, onAnswered, onClose }: AnswerModalProps) {
  // Redaction (issue 14): the public wording, starting from the question as asked.
  const [publicQuestion, setPublicQuestion] = useState(question.question);
  const [publicDetail, setPublicDetail] = useState(question.detail ?? '');
  const { errorId, answer, error, setError, busy, setBusy, begin, field, form } = useAnswerForm(question, '', () => ({
    // A public wording emptied by mistake would publish a question without a title.
    publicQuestion: question.isPrivate || publicQuestion.trim() ? undefined : PUBLIC_QUESTION_REQUIRED,
  }));
  const [tags, setTags] = useState<string[]>(question.tags ?? []);
  const [displayOnProfile, setDisplayOnProfile] = useState(true);
  const [redactOpen, setRedactOpen] = useState(false);
  const redacted = publicQuestion.trim() !== question.question || publicDetail.trim() !== (question.detail ?? '');
  const tip = tipView(question, Date.now());

  const submit = async (e: FormEvent, close: () => void) => {
    const id = begin(e);
    if (!id) return;
    try {
      const updated = await postAnswer(id, {
        answer: answer.trim(),
        displayOnProfile,
        replierName: replierName.trim() || 'Anonymous',
        tags,
        ...(redacted ? { publicQuestion: publicQuestion.trim(), publicDetail: publicDetail.trim() } : {}),
      });
      onAnswered({ ...question, answer: answer.trim(), tags, displayOnProfile, status: 'Answered', ...(updated ?? {}) });
      close();
    } catch (err) {
      setError(errorText(err, POST_FAILED.server, POST_FAILED.network));
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
          <AnswerField {...field} />
          <TagInput tags={tags} onChange={setTags} />
          {question.isPrivate ? (
            // The asker's consent (issue 14): a private question is never on the public page.
            <p className="field__hint answer-modal__private">
              <span className="display-value display-value--private">Private</span>
              <label className="checkbox">
                <input type="checkbox" checked={false} disabled aria-describedby={`${errorId}-private`} /> Show on
                profile
              </label>
              <span id={`${errorId}-private`}>The asker chose “Private — only I see the answer”: it is never shown on your page.</span>
            </p>
          ) : (
            <>
              <Checkbox checked={displayOnProfile} onChange={setDisplayOnProfile}>
                Show on profile
              </Checkbox>
              {/* Opened when its field has an error (the message must be seen); the toggle event keeps it open after. */}
              <details
                className="answer-modal__redact"
                open={redactOpen || Boolean(form.errors.publicQuestion)}
                onToggle={(e) => setRedactOpen(e.currentTarget.open)}
              >
                <summary>Edit the public wording (remove personal details)</summary>
                <InputField {...form.field('publicQuestion')} label="Public question" type="text" value={publicQuestion} onChange={setPublicQuestion} />
                <TextAreaField label="Public description" className="input" rows={3} value={publicDetail} onChange={setPublicDetail} />
                <p className="field__hint">Your page shows this wording; the asker keeps the original.</p>
              </details>
            </>
          )}
          <ErrorSummary count={form.count} />
          <ErrorBanner id={errorId}>{error}</ErrorBanner>
          <FormFooter onCancel={requestClose} busy={busy} submit="Post Answer" submitting="Posting…" />
        </form>
      )}
    </Modal>
  );
}
