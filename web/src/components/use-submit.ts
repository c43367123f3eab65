import { useId, useState, type FormEvent } from 'react';
import { errorText } from '../lib/api';

/**
 * A form's submit, one shape for every form: checks the values first (a problem is shown and nothing is sent), then
 * runs the call once at a time. Its failure shows the server's message, or `failed` / `unreachable` when there is none
 * / no answer; `run` may also resolve to an error text of its own (the call answered, but not with what was needed).
 * `describedBy` is the error's id while there is one (the fields' `aria-describedby`).
 * Here rather than in lib/: lib/ is in the chunk every page loads first, and only the forms' chunks need this.
 */
export function useSubmit({
  fields,
  check = () => '',
  run,
  failed,
  unreachable,
  leaves = false,
}: {
  /** The form's per-field errors (`useFieldErrors`): a submit shows them all, and sends nothing while there are any. */
  fields?: { attempt: () => boolean };
  /** The first problem with the values that is no field's own, or `''`. */
  check?: () => string;
  run: () => Promise<string | void>;
  failed: string;
  unreachable: string;
  /** The page navigates away on success: the button stays busy until it has. */
  leaves?: boolean;
}) {
  const errorId = useId();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (fields && !fields.attempt()) {
      setError('');
      return;
    }
    const problem = check();
    setError(problem);
    if (problem) return;
    setBusy(true);
    let failure: string | void;
    try {
      failure = await run();
    } catch (err) {
      failure = errorText(err, failed, unreachable);
    }
    if (failure) setError(failure);
    if (failure || !leaves) setBusy(false);
  };
  return {
    error,
    errorId,
    describedBy: error ? errorId : undefined,
    busy,
    onSubmit: (e: FormEvent) => void onSubmit(e),
  };
}
