import { useId, useState } from 'react';

/** Each field's message while it is invalid; a valid field has none. */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** What `form.field(key)` hands a `Field` / `InputField`: its id and its own error. */
export interface FieldWiring {
  id: string;
  error: string | undefined;
}

export interface FieldErrorsForm<K extends string> {
  /** The fields' errors on screen: none before the first submit, then the rules re-read on every render. */
  errors: FieldErrors<K>;
  /** How many fields are invalid on screen (the summary's count). */
  count: number;
  /**
   * A submit attempt: from now on every error shows, each under its field. True when the values pass (send them);
   * false when one does not — the first invalid field is focused.
   */
  attempt: () => boolean;
  /** The props of a field's `Field`: `<InputField {...form.field('email')} … />` (its id, its error). */
  field: (key: K) => FieldWiring;
  /** The control's id of a field (to focus it, or to wire a control `Field` does not render). */
  idOf: (key: K) => string;
  /** Back to the untouched state (no errors shown), e.g. after a successful send. */
  reset: () => void;
}

/**
 * Per-field errors, one shape for every form (issue 28): `rules` gives each invalid field's message from the current
 * values. Nothing shows until the first submit; from then on every message shows together, each under its field, and
 * because the rules are read again on every render a message goes the moment its field becomes valid (and comes back
 * if it is emptied again). `ErrorSummary` says how many are left, politely. A form keeps its server's failure in its
 * own banner (`useSubmit`'s `error`), apart from these.
 *
 *   const form = useFieldErrors(() => ({ email: email.trim() ? undefined : 'Email is required' }));
 *   <InputField {...form.field('email')} label="Email" value={email} onChange={setEmail} />
 *   onSubmit: if (!form.attempt()) return;
 */
export function useFieldErrors<K extends string>(rules: () => FieldErrors<K>): FieldErrorsForm<K> {
  const prefix = useId();
  const [shown, setShown] = useState(false);
  const idOf = (key: K) => `${prefix}-${key}`;
  const current = (): FieldErrors<K> => {
    const all = rules();
    // Drop the valid ones (a rule may say `undefined` or '').
    return Object.fromEntries(Object.entries(all).filter(([, message]) => Boolean(message))) as FieldErrors<K>;
  };
  const errors: FieldErrors<K> = shown ? current() : {};
  return {
    errors,
    count: Object.keys(errors).length,
    attempt: () => {
      setShown(true);
      const found = Object.keys(current()) as K[];
      if (found.length === 0) return true;
      // Rules list fields in the form's order: the first one is where the eye (and the caret) goes.
      // A group (the tip's fieldset, a wrapper) is focused at its first control.
      const target = document.getElementById(idOf(found[0]!));
      const control = target?.matches('input, select, textarea, button') ? target : target?.querySelector<HTMLElement>('input, select, textarea, button');
      control?.focus();
      return false;
    },
    field: (key) => ({ id: idOf(key), error: errors[key] }),
    idOf,
    reset: () => setShown(false),
  };
}
