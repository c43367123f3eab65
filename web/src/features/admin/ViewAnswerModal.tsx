import type { Question } from '@ques/contracts/core';
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../components/Banner';
import { Modal } from '../../components/Modal';
import { TagInput } from '../../components/TagInput';
import { errorText } from '../../lib/api';
import { editAnswer } from './api';
import { AnswerField, FormFooter, QuestionSummary, useAnswerForm } from './qa-form';

/** Spec §8: what a failed edit says. */
const EDIT_FAILED = { server: 'Failed to update answer', network: 'Failed to update answer. Please try again.' } as const;

interface ViewAnswerModalProps {
  question: Question;
  meta?: string;
  /** The recipient may edit their answer; the asker only reads it. */
  editable: boolean;
  onSaved?: (updated: Question) => void;
  onClose: () => void;
}

/** View an answer; Edit → Post Answer or Cancel, Cancel restoring the previous answer and tags (spec §2 modals). */
export function ViewAnswerModal({ question, meta, editable, onSaved, onClose }: ViewAnswerModalProps) {
  // What is saved: shown in view mode, and what Cancel goes back to.
  const [saved, setSaved] = useState({ answer: question.answer ?? '', tags: question.tags ?? [] });
  const [editing, setEditing] = useState(false);
  const { errorId, answer, setAnswer, error, setError, setBusy, busy, begin, field, form } = useAnswerForm(
    question,
    saved.answer,
  );
  const [tags, setTags] = useState<string[]>(saved.tags);

  const cancel = () => {
    setAnswer(saved.answer);
    setTags(saved.tags);
    setError('');
    form.reset();
    setEditing(false);
  };

  const submit = async (e: FormEvent) => {
    const id = begin(e);
    if (!id) return;
    try {
      const updated = await editAnswer(id, answer.trim(), tags);
      const next = { answer: updated?.answer ?? answer.trim(), tags: updated?.tags ?? tags };
      setSaved(next);
      setAnswer(next.answer);
      setTags(next.tags);
      setEditing(false);
      onSaved?.({ ...question, ...(updated ?? {}), ...next });
    } catch (err) {
      setError(errorText(err, EDIT_FAILED.server, EDIT_FAILED.network));
    }
    setBusy(false);
  };

  return (
    <Modal title={editing ? 'Edit answer' : 'Answer'} onClose={onClose} className="qa-modal">
      {(requestClose) =>
        editing ? (
          <form className="qa-form" noValidate onSubmit={(e) => void submit(e)}>
            <QuestionSummary question={question} meta={meta} />
            <AnswerField {...field} />
            <TagInput tags={tags} onChange={setTags} />
            <ErrorBanner id={errorId}>{error}</ErrorBanner>
            <FormFooter onCancel={cancel} busy={busy} submit="Post Answer" submitting="Posting…" />
          </form>
        ) : (
          <div className="qa-form">
            <QuestionSummary question={question} meta={meta} />
            <div className="qa-answer">
              <p className="qa-answer__text">{saved.answer}</p>
              {question.source?.trim() ? <p className="qa-answer__source">Source: {question.source}</p> : null}
              {saved.tags.length > 0 ? (
                <ul className="qa-answer__tags" aria-label="Tags">
                  {saved.tags.map((t) => (
                    <li key={t} className="chip">
                      {t}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
            <div className="qa-form__footer">
              <button type="button" className="button button--ghost" onClick={requestClose}>
                Close
              </button>
              {editable ? (
                <button type="button" className="button button--primary" onClick={() => setEditing(true)}>
                  Edit
                </button>
              ) : null}
            </div>
          </div>
        )
      }
    </Modal>
  );
}
