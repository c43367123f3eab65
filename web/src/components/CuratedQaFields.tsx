import { CURATE_MESSAGES, QUESTION_LIMITS } from '@ques/contracts/core';
import { InputField, TextAreaField } from './Field';
import { TagInput } from './TagInput';

/**
 * The fields of a curated Q&A, shared by the owner's curate modal and the console's archive curation: the title and
 * description when it is made, then the answer, its tags and its source. A field is marked invalid when the form's
 * error is that field's message; `describedBy` points every field at the form's error banner.
 */
export interface CuratedQaValues {
  question: string;
  detail: string;
  answer: string;
  tags: string[];
  source: string;
}

/** The setter maker of `useFormValues` (`set('answer')` is the answer field's `onChange`). */
export type SetOf<V> = <K extends keyof V>(key: K) => (value: V[K]) => void;

/** A required field: marked invalid while the form's error is its own message, pointing at the form's banner. */
const requiredField = (message: string, error: string, describedBy: string | undefined) =>
  ({ marker: 'required', invalid: error === message, describedBy }) as const;

export function CuratedQuestionFields<V extends Pick<CuratedQaValues, 'question' | 'detail'>>({
  values,
  set: setOf,
  error,
  describedBy,
  detailRows,
}: {
  values: V;
  set: SetOf<V>;
  error: string;
  describedBy: string | undefined;
  detailRows: number;
}) {
  // V's fields of these names have exactly CuratedQaValues' types.
  const set = setOf as unknown as SetOf<CuratedQaValues>;
  return (
    <>
      <InputField
        label="Question title"
        {...requiredField(CURATE_MESSAGES.titleRequired, error, describedBy)}
        type="text"
        maxLength={QUESTION_LIMITS.question}
        value={values.question}
        onChange={set('question')}
      />
      <TextAreaField
        label="Description"
        marker="optional"
        rows={detailRows}
        maxLength={QUESTION_LIMITS.detail}
        value={values.detail}
        onChange={set('detail')}
      />
    </>
  );
}

export function CuratedAnswerFields<V extends Pick<CuratedQaValues, 'answer' | 'tags' | 'source'>>({
  values,
  set: setOf,
  error,
  describedBy,
  answerRows,
  answerClassName,
  sourceRule,
}: {
  values: V;
  set: SetOf<V>;
  error: string;
  describedBy: string | undefined;
  answerRows: number;
  answerClassName?: string;
  /**
   * Whether the source is asked for: `null` on an owned profile (spec: shown only on archive profiles); optional on
   * the archive's own curate form; required, with its message and hint, in the console.
   */
  sourceRule:
    | null
    | { marker: 'optional'; placeholder: string }
    | { marker: 'required'; hint: string; message: string };
}) {
  const set = setOf as unknown as SetOf<CuratedQaValues>;
  return (
    <>
      <TextAreaField
        label="Answer"
        {...requiredField(CURATE_MESSAGES.answerRequired, error, describedBy)}
        {...(answerClassName ? { className: answerClassName } : {})}
        rows={answerRows}
        maxLength={QUESTION_LIMITS.answer}
        value={values.answer}
        onChange={set('answer')}
      />
      <TagInput tags={values.tags} onChange={set('tags')} />
      {sourceRule ? (
        <InputField
          label="Source"
          marker={sourceRule.marker}
          hint={sourceRule.marker === 'required' ? sourceRule.hint : undefined}
          placeholder={sourceRule.marker === 'optional' ? sourceRule.placeholder : undefined}
          invalid={sourceRule.marker === 'required' && error === sourceRule.message}
          describedBy={sourceRule.marker === 'required' ? describedBy : undefined}
          type="text"
          maxLength={QUESTION_LIMITS.source}
          value={values.source}
          onChange={set('source')}
        />
      ) : null}
    </>
  );
}
