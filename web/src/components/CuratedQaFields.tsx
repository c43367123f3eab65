import { CURATE_MESSAGES, QUESTION_LIMITS } from '@ques/contracts/core';
import { InputField, TextAreaField } from './Field';
import type { FieldErrors, FieldWiring } from './use-field-errors';
import { TagInput } from './TagInput';

/**
 * The fields of a curated Q&A, shared by the owner's curate modal and the console's archive curation: the title and
 * description when it is made, then the answer, its tags and its source. Each required field shows its own error
 * (`field`, the wiring of the form's `useFieldErrors`; rules: `curatedQaErrors`).
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

/** The fields with a rule. */
export type CuratedField = 'question' | 'answer' | 'source';

/**
 * Spec §5 curate rules as per-field errors (issue 28): the title when the form has one, the answer, and the source
 * when `sourceMessage` says it is required.
 */
export function curatedQaErrors(
  values: { question?: string; answer: string; source?: string },
  sourceMessage?: string,
): FieldErrors<CuratedField> {
  return {
    question: values.question !== undefined && !values.question.trim() ? CURATE_MESSAGES.titleRequired : undefined,
    answer: values.answer.trim() ? undefined : CURATE_MESSAGES.answerRequired,
    source: sourceMessage && !values.source?.trim() ? sourceMessage : undefined,
  };
}

export function CuratedQuestionFields<V extends Pick<CuratedQaValues, 'question' | 'detail'>>({
  values,
  set: setOf,
  field,
  detailRows,
}: {
  values: V;
  set: SetOf<V>;
  field: (key: CuratedField) => FieldWiring;
  detailRows: number;
}) {
  // V's fields of these names have exactly CuratedQaValues' types.
  const set = setOf as unknown as SetOf<CuratedQaValues>;
  return (
    <>
      <InputField
        label="Question title"
        marker="required"
        {...field('question')}
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
  field,
  answerRows,
  answerClassName,
  sourceRule,
}: {
  values: V;
  set: SetOf<V>;
  field: (key: CuratedField) => FieldWiring;
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
        marker="required"
        {...field('answer')}
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
          {...field('source')}
          type="text"
          maxLength={QUESTION_LIMITS.source}
          value={values.source}
          onChange={set('source')}
        />
      ) : null}
    </>
  );
}
