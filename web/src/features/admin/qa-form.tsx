import type { Question } from '@ques/contracts/core';
import { Field } from '../../components/Field';

/* Parts of the answer, edit and curate forms (spec §2 "Modals"). */

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
    <Field label="Your answer" marker="required" invalid={invalid} describedBy={describedBy}>
      {(field) => (
        <textarea {...field} className="input input--area qa-form__answer" rows={7} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
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
