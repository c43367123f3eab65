import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { ErrorBanner } from './Banner';

/** What `Field` hands its control: spread it onto the input, textarea or select. */
export interface FieldControl {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

interface FieldProps {
  label: ReactNode;
  /** "(required)" or "(optional)" after the label. */
  marker?: 'required' | 'optional';
  /** Next to the label, on the same row (the login form's "I don't remember" link). */
  labelAside?: ReactNode;
  /** Help under the control, linked to it. */
  hint?: ReactNode;
  /** This field's own error, shown under it, linked to it and marking the control invalid. */
  error?: ReactNode;
  /** The control is invalid; the message is shown elsewhere (a form's banner). */
  invalid?: boolean;
  /** The id of a message elsewhere that describes this field's problem (a form's error banner). */
  describedBy?: string;
  /** An id of the caller's, when it needs to find the control (to focus it). */
  id?: string;
  as?: 'div' | 'li';
  className?: string;
  /** The control; `(field) => <input {...field} className="input" … />`. */
  children: (control: FieldControl) => ReactNode;
}

/**
 * A labelled form control with its hint and error: the one place where `id`/`htmlFor`, `aria-describedby` and
 * `aria-invalid` are wired, so every form reads the same to a screen reader.
 */
export function Field({
  label,
  marker,
  labelAside,
  hint,
  error,
  invalid,
  describedBy,
  id,
  as: Wrapper = 'div',
  className,
  children,
}: FieldProps) {
  const ownId = useId();
  const controlId = id ?? ownId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const described = [hint ? hintId : null, error ? errorId : describedBy].filter(Boolean).join(' ');
  const labelElement = (
    <label htmlFor={controlId} className="field__label">
      {label}
      {marker ? (
        <>
          {' '}
          <span className={`field__${marker}`}>({marker})</span>
        </>
      ) : null}
    </label>
  );
  return (
    <Wrapper className={className ? `field ${className}` : 'field'}>
      {labelAside ? (
        <div className="field__label-row">
          {labelElement}
          {labelAside}
        </div>
      ) : (
        labelElement
      )}
      {children({
        id: controlId,
        'aria-describedby': described || undefined,
        'aria-invalid': error || invalid ? true : undefined,
      })}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? <ErrorBanner id={errorId}>{error}</ErrorBanner> : null}
    </Wrapper>
  );
}

type FieldOnly = Omit<FieldProps, 'children' | 'as' | 'className'>;
type Value = { value: string; onChange: (value: string) => void };
type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id' | 'children'>;
type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'id' | 'children'>;
type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'id' | 'children'>;
/** One choice of a `SelectField`: a value shown as itself, or a value with its label. */
export type SelectOption = string | { value: string; label: string; disabled?: boolean };
/** The props that are the Field's, the value and its setter, and the rest (the control's own attributes). */
function split<P extends FieldOnly & Value>(props: P) {
  const { label, marker, labelAside, hint, error, invalid, describedBy, id, value, onChange, ...control } = props;
  return { field: { label, marker, labelAside, hint, error, invalid, describedBy, id }, value, onChange, control };
}

/**
 * The common case: a labelled text input (`type`, `autoComplete`, `required`… go to the input; a `className` of the
 * caller's replaces its `input` class).
 */
export function InputField(props: FieldOnly & InputProps & Value) {
  const { field, value, onChange, control } = split(props);
  return (
    <Field {...field}>
      {(aria) => (
        <input className="input" {...control} {...aria} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}

/** A labelled textarea, like `InputField` (its class defaults to `input input--area`). */
export function TextAreaField(props: FieldOnly & TextAreaProps & Value) {
  const { field, value, onChange, control } = split(props);
  return (
    <Field {...field}>
      {(aria) => (
        <textarea className="input input--area" {...control} {...aria} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}

/**
 * A labelled select, like `InputField` (its class defaults to `input select`); `options` in order, each a string shown
 * as itself or `{ value, label }`.
 */
export function SelectField<V extends string = string>(
  props: FieldOnly & SelectProps & { value: V | ''; onChange: (value: V) => void; options: readonly SelectOption[] },
) {
  const { options, onChange: onChoose, ...rest } = props;
  // Every option's value is one of V's (or '' for a placeholder), so the select only ever reports a V.
  const { field, value, onChange, control } = split({ ...rest, onChange: (v: string) => onChoose(v as V) });
  return (
    <Field {...field}>
      {(aria) => (
        <select className="input select" {...control} {...aria} value={value} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => {
            const option = typeof o === 'string' ? { value: o, label: o } : o;
            return (
              <option key={option.value} value={option.value} disabled={option.disabled}>
                {option.label}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

interface CheckboxProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The text next to the box. */
  children: ReactNode;
  invalid?: boolean;
  describedBy?: string;
  required?: boolean;
  id?: string;
}

/** A checkbox with its text as the label (terms agreement, "Show on profile"). */
export function Checkbox({ checked, onChange, children, invalid, describedBy, required, id }: CheckboxProps) {
  const ownId = useId();
  const controlId = id ?? ownId;
  return (
    <label className="checkbox" htmlFor={controlId}>
      <input
        id={controlId}
        type="checkbox"
        required={required}
        checked={checked}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>{children}</span>
    </label>
  );
}

/** "the Terms of Use and Privacy Policy", each opening in a new tab (spec §2). */
export function TermsLinks() {
  return (
    <>
      the{' '}
      <a href="/terms-of-use" target="_blank" rel="noopener noreferrer">
        Terms of Use
      </a>{' '}
      and{' '}
      <a href="/privacy-policy" target="_blank" rel="noopener noreferrer">
        Privacy Policy
      </a>
    </>
  );
}
