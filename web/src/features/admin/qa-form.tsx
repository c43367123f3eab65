import { ANSWER_MESSAGES, type Question } from '@ques/contracts/core';
import { useId, useState, type FormEvent } from 'react';
import { TextAreaField } from '../../components/Field';
import { useFieldErrors, type FieldErrors, type FieldWiring } from '../../components/use-field-errors';
import { questionId } from './lists';

/* Parts of the answer, edit and curate forms (spec §2 "Modals"). */

/**
 * The answer and edit forms' state: the answer, the per-field errors (spec §5: the answer must not be blank; `more`
 * adds a form's other fields' rules), the form's own error (the server's) and busy flag, the `AnswerField` props, and
 * `begin`, which starts a submit — nothing while one is under way, else every field's error shown (issue 28) and, when
 * there is none, busy set; it gives the question's id, or null when there is nothing to send.
 */
export function useAnswerForm<K extends string = never>(
  question: Question,
  initialAnswer: string,
  more: () => FieldErrors<K> = () => ({}),
) {
  const errorId = useId();
  const [answer, setAnswer] = useState(initialAnswer);
  const form = useFieldErrors<'answer' | K>(
    // The answer first: it is the form's first field.
    (): FieldErrors<'answer' | K> => ({ answer: answer.trim() ? undefined : ANSWER_MESSAGES.answerRequired, ...more() }) as FieldErrors<'answer' | K>,
  );
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const begin = (e: FormEvent): string | null => {
    e.preventDefault();
    if (busy) return null;
    setError('');
    if (!form.attempt()) return null;
    const id = questionId(question);
    if (!id) {
      setError(ANSWER_MESSAGES.invalidQuestionId);
      return null;
    }
    setBusy(true);
    return id;
  };
  const field = { value: answer, onChange: setAnswer, ...form.field('answer') };
  return { errorId, answer, setAnswer, error, setError, busy, setBusy, begin, field, form };
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
export function AnswerField({ value, onChange, id, error }: { value: string; onChange: (value: string) => void } & FieldWiring) {
  return (
    <TextAreaField
      label="Your answer"
      marker="required"
      id={id}
      error={error}
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
