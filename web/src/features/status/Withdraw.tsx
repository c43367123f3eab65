import { useState } from 'react';
import type { QuestionStatusPage } from '@ques/contracts/core';
import { ErrorBanner } from '../../components/Banner';
import { errorText } from '../../lib/api';
import { withdrawByStatusLink } from './api';

/** Withdraw, after a confirm step (issue 14): the owner can no longer answer, and a held tip is released. */
export function Withdraw({
  page,
  token,
  onChange,
}: {
  page: QuestionStatusPage;
  token: string;
  onChange: (page: QuestionStatusPage) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function withdraw() {
    setBusy(true);
    setError('');
    try {
      onChange(await withdrawByStatusLink(token));
    } catch (err) {
      setError(errorText(err, 'Could not withdraw the question.', 'Could not reach Ques. Try again.'));
    } finally {
      setConfirming(false);
      setBusy(false);
    }
  }

  return (
    <>
      {error ? <ErrorBanner>{error}</ErrorBanner> : null}
      {confirming ? (
        <div className="status-page__confirm" role="group" aria-label="Confirm withdrawal">
          <p>
            Withdraw this question? {page.toName} can no longer answer it
            {page.tip ? ' and the hold on your card is released' : ''}.
          </p>
          <button type="button" className="button button--danger" onClick={() => void withdraw()} disabled={busy}>
            {busy ? 'Withdrawing…' : 'Yes, withdraw'}
          </button>{' '}
          <button type="button" className="button" onClick={() => setConfirming(false)} disabled={busy}>
            Keep it
          </button>
        </div>
      ) : (
        <button type="button" className="button" onClick={() => setConfirming(true)}>
          Withdraw
        </button>
      )}
    </>
  );
}
