import { useState } from 'react';

/**
 * A form's values in one state object, with a setter per field: `set('answer')` is the `onChange` of the answer's
 * field. Returns the values, the setter maker and `reset` (back to the initial values, or to new ones).
 */
export function useFormValues<V extends object>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const set =
    <K extends keyof V>(key: K) =>
    (value: V[K]) =>
      setValues((v) => ({ ...v, [key]: value }));
  return { values, set, reset: (next: V = initial) => setValues(next) };
}
