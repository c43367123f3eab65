import { ANSWER_MESSAGES, type Question } from '@ques/contracts/core';
import { useId, useState, type FormEvent } from 'react';
import { TextAreaField } from '../../components/Field';
import { questionId } from './lists';

/* Parts of the answer, edit and curate forms (spec §2 "Modals"). */

/** Spec §5 answer modal: the answer must not be blank, the question must have an id. */
export function checkAnswer(answer: string, question: Question): { ok: true; id: string } | { ok: false; message: string } {
  if (!answer.trim()) return { ok: false, message: ANSWER_MESSAGES.answerRequired };
  const id = questionId(question);
  return id ? { ok: true, id } : { ok: false, message: ANSWER_MESSAGES.invalidQuestionId };
}

/**
 * The answer and edit forms' state: the answer, its error and busy flag, the `AnswerField` props, and `begin`, which
 * starts a submit — nothing while one is under way, else the answer checked (its message shown) and busy set; it
 * gives the question's id, or null when there is nothing to send.
 */
export function useAnswerForm(question: Question, initialAnswer: string) {
  const errorId = useId();
  const [answer, setAnswer] = useState(initialAnswer);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const begin = (e: FormEvent): string | null => {
    e.preventDefault();
    if (busy) return null;
    const checked = checkAnswer(answer, question);
    setError(checked.ok ? '' : checked.message);
    if (!checked.ok) return null;
    setBusy(true);
    return checked.id;
  };
  const field = {
    value: answer,
    onChange: setAnswer,
    invalid: error === ANSWER_MESSAGES.answerRequired,
    describedBy: error ? errorId : undefined,
  };
  return { errorId, answer, setAnswer, error, setError, busy, setBusy, begin, field };
}

/** The question being answered or viewed: title, optional detail, a meta line. */
export function QuestionSummary({ question, meta }: { question: Question; meta?: string | undefined }) {
  return (
    <div className="qa-summary">
      {meta ? <p className="qa-summary__meta">{meta}</p> : null}
      <p className="qa-summary__question">{question.question}</p>
      {question.detail?.trim() ? <p className="qa-summary__detail">{question.detail}</p> : null}
    </div>
  );
}

/** "Your answer (required)": the answer and edit forms' text. */
export function AnswerField({
  value,
  onChange,
  invalid,
  describedBy,
}: {
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  return (
    <TextAreaField
      label="Your answer"
      marker="required"
      invalid={invalid}
      describedBy={describedBy}
      className="input input--area qa-form__answer"
      rows={7}
      value={value}
      onChange={onChange}
    />
  );
}

/** Cancel and the submit button, which says what is happening while the request runs. */
export function FormFooter({
  onCancel,
  busy,
  submit,
  submitting,
}: {
  onCancel: () => void;
  busy: boolean;
  submit: string;
  submitting: string;
}) {
  return (
    <div className="qa-form__footer">
      <button type="button" className="button button--ghost" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? submitting : submit}
      </button>
    </div>
  );
}
