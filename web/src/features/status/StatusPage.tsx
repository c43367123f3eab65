import { useEffect, useState } from 'react';
import { countdownText, formatCents, profilePath, type QuestionStatusPage } from '@ques/contracts/core';
import { ErrorBanner, LoadingText } from '../../components/Banner';
import { ApiError, errorText } from '../../lib/api';
import { usePageHead } from '../../lib/head';
import { Link, useParams } from '../../lib/router';
import { useApiData } from '../../lib/use-api-data';
import { openStatusPage, withdrawByStatusLink } from './api';
import './status.css';

const longDate = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

/** Keeps search engines off the page while it is mounted (the link is the asker's alone). */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

/** The minute, for the countdown. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(id);
  }, []);
  return now;
}

/**
 * `/q/{token}` (issue 14): the asker's private page for one question — no account. Opening it confirms a guest's
 * address. The tip's hold, its automatic release, the outcome, the answer (also when not public), and Withdraw.
 */
export default function StatusPage() {
  const { token = '' } = useParams();
  useNoIndex();
  usePageHead('Your question — Ques', 'The private status page of a question.', '/');
  const loaded = useApiData((signal) => openStatusPage(token, signal), [token]);
  const [page, setPage] = useState<QuestionStatusPage | null>(null);
  const data = page ?? loaded.data;

  if (loaded.status === 'error') {
    const missing = loaded.error instanceof ApiError && loaded.error.status === 404;
    return (
      <section className="page page--narrow">
        <h1 className="page__title">{missing ? 'Page not found' : 'Something went wrong'}</h1>
        <p>
          {missing
            ? 'This status page does not exist. Check the link in your e-mail.'
            : errorText(loaded.error, 'Failed to load this page.', 'Could not reach Ques. Try again.')}
        </p>
        <p>
          <Link to="/" className="button button--primary">
            Go to the home page
          </Link>
        </p>
      </section>
    );
  }
  if (!data) {
    return (
      <section className="page page--narrow">
        <LoadingText>Loading</LoadingText>
      </section>
    );
  }
  return <StatusView page={data} token={token} onChange={setPage} />;
}

function StatusView({
  page,
  token,
  onChange,
}: {
  page: QuestionStatusPage;
  token: string;
  onChange: (page: QuestionStatusPage) => void;
}) {
  const now = useNow();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const name = page.toName;

  async function withdraw() {
    setBusy(true);
    setError('');
    try {
      onChange(await withdrawByStatusLink(token));
      setConfirming(false);
    } catch (err) {
      setError(errorText(err, 'Could not withdraw the question.', 'Could not reach Ques. Try again.'));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  }

  const tip = page.tip;
  const amount = tip ? formatCents(tip.amountCents, tip.currency) : '';
  return (
    <section className="page page--narrow status-page" aria-labelledby="status-title">
      <h1 id="status-title" className="page__title">
        Your question to <Link to={profilePath(page.toUsername)}>{name}</Link>
      </h1>
      <p className="status-page__status">
        Status: <strong data-testid="status">{page.status}</strong>
        <span className="status-page__consent">
          {page.isPrivate ? 'Private — only you see the answer' : `May be published on ${name}'s page`}
        </span>
      </p>

      <article className="status-page__question">
        <h2>{page.question}</h2>
        {page.detail ? <p className="status-page__detail">{page.detail}</p> : null}
        <p className="status-page__asked">Asked on {longDate(page.askedAt)}</p>
      </article>
      {page.publicQuestion !== null ? (
        <div className="status-page__question" data-testid="redacted">
          <p className="status-page__note">{name} redacted the public wording to remove personal details. Published as:</p>
          <h2>{page.publicQuestion}</h2>
          {page.publicDetail ? <p className="status-page__detail">{page.publicDetail}</p> : null}
        </div>
      ) : null}

      {tip ? (
        <div className="status-page__tip" data-testid="tip">
          {tip.state === 'held' ? (
            <>
              <p>
                Your card is held for {amount} — you are not charged unless {name} answers.
              </p>
              {tip.releaseAt ? (
                <p data-testid="countdown">
                  Released automatically in {countdownText(new Date(tip.releaseAt), now)}, on{' '}
                  {longDate(tip.releaseAt)}.
                </p>
              ) : null}
            </>
          ) : tip.state === 'charged' ? (
            <p>
              Charged {amount}
              {tip.chargedAt ? ` on ${longDate(tip.chargedAt)}` : ''}.
            </p>
          ) : (
            <p>Released — never charged.</p>
          )}
        </div>
      ) : null}

      {page.answer !== null ? (
        <div className="status-page__answer">
          <h2>{name}’s answer</h2>
          <p>{page.answer}</p>
          {!page.isPublic ? <p className="status-page__note">Only you can see this answer.</p> : null}
        </div>
      ) : null}

      {error ? <ErrorBanner>{error}</ErrorBanner> : null}

      {page.status === 'Pending' ? (
        confirming ? (
          <div className="status-page__confirm" role="group" aria-label="Confirm withdrawal">
            <p>
              Withdraw this question? {name} can no longer answer it
              {tip ? ' and the hold on your card is released' : ''}.
            </p>
            <button type="button" className="button button--danger" onClick={withdraw} disabled={busy}>
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
        )
      ) : null}
    </section>
  );
}
