import { useId, useState, type FormEvent } from 'react';
import { errorText } from './api';

/**
 * A form's submit: checks the values first (a problem is shown and nothing is sent), runs the call once at a time and
 * shows its failure as the server's message, or `failed` / `unreachable` when there is none / no answer.
 * `describedBy` is the error's id while there is one (the fields' `aria-describedby`).
 */
export function useSubmit({
  check,
  run,
  failed,
  unreachable,
}: {
  /** The first problem with the values, or `''`. */
  check: () => string;
  run: () => Promise<void>;
  failed: string;
  unreachable: string;
}) {
  const errorId = useId();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problem = check();
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await run();
    } catch (err) {
      setError(errorText(err, failed, unreachable));
    } finally {
      setBusy(false);
    }
  };
  return {
    error,
    errorId,
    describedBy: error ? errorId : undefined,
    busy,
    onSubmit: (e: FormEvent) => void onSubmit(e),
  };
}
