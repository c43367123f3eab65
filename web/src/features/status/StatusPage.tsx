import { useEffect, useState } from 'react';
import { formatCents, profilePath, type QuestionStatusPage } from '@ques/contracts/core';
import { Avatar } from '../../components/Avatar';
import { LoadingText } from '../../components/Banner';
import { PageProblem } from '../../components/PageState';
import { ApiError, errorText } from '../../lib/api';
import { themeVars } from '../../lib/color';
import { usePageHead } from '../../lib/head';
import { Link, useLocation, useParams } from 'react-router-dom';
import { pageDataKeys, usePageData } from '../../lib/ssr';
import { openSupport } from '../../lib/support';
import { useApiData } from '../../lib/use-api-data';
import { openStatusPage, readStatusPage } from './api';
import { Countdown, LocalTime, ServerZoneContext, TimeZoneContext } from './clock';
import { Confirmation } from './Confirmation';
import { Timeline } from './Timeline';
import { Withdraw } from './Withdraw';
import './status.css';

/** Keeps search engines off the page while it is mounted (the link is the asker's alone). */
function useNoIndex() {
  useEffect(() => {
    // Loaded at /q/… the server's shell already carries one (issue 33); reached in the app (after asking), add it.
    if (document.head.querySelector('meta[name="robots"]')) return;
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

/** While the payment is confirming: the page again every second for half a minute, then every 5 s (issue 28). */
function usePollWhileConfirming(
  token: string,
  page: QuestionStatusPage | undefined,
  onChange: (p: QuestionStatusPage) => void,
) {
  const confirming = page?.status === 'Confirming';
  useEffect(() => {
    if (!confirming) return;
    const controller = new AbortController();
    let attempts = 0;
    let timer = 0;
    const poll = async () => {
      attempts += 1;
      try {
        const next = await readStatusPage(token, controller.signal);
        if (next.status !== 'Confirming') return onChange(next);
      } catch {
        // Not there yet or the network hiccupped: the next poll tries again.
      }
      if (!controller.signal.aborted) timer = window.setTimeout(poll, attempts < 30 ? 1000 : 5000);
    };
    timer = window.setTimeout(poll, 1000);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [token, confirming, onChange]);
}

/**
 * Opening the page confirms a guest's address when it is their mailed link (issue 14). The server renders the page
 * from the read-only call (a page GET must change nothing), so the hydrated page makes this call itself, as a page
 * the browser loads does; its answer changes nothing shown there (ADR 0058).
 */
function useConfirmOnOpen(token: string, serverRendered: boolean) {
  useEffect(() => {
    if (!serverRendered) return;
    const controller = new AbortController();
    openStatusPage(token, controller.signal).catch(() => {
      // Offline or gone: the next opening confirms.
    });
    return () => controller.abort();
  }, [token, serverRendered]);
}

/**
 * `/q/{token}` (issues 14, 28): the asker's private page for one question, as an order page — no account, in the
 * owner's colours. Opening the mailed link confirms a guest's address. `?confirmed=1` (right after asking or paying)
 * adds the confirmation. Server-rendered from the BFF's page data (ADR 0058), times in UTC until hydrated (clock.tsx).
 */
export default function StatusPage({ timeZone }: { timeZone?: string }) {
  const { token = '' } = useParams();
  const confirmation = new URLSearchParams(useLocation().search).get('confirmed') === '1';
  useNoIndex();
  usePageHead('Your question — Ques', 'The private status page of a question.', '/');
  const initial = usePageData<QuestionStatusPage>(pageDataKeys.status(token));
  const rendered = usePageData<string>(pageDataKeys.zone());
  const serverZone = rendered && 'data' in rendered ? rendered.data : undefined;
  const loaded = useApiData((signal) => openStatusPage(token, signal), [token], initial);
  useConfirmOnOpen(token, initial !== undefined && 'data' in initial);
  const [page, setPage] = useState<QuestionStatusPage | null>(null);
  const data = page ?? loaded.data;
  usePollWhileConfirming(token, data, setPage);

  if (loaded.status === 'error') {
    const missing = loaded.error instanceof ApiError && loaded.error.status === 404;
    return (
      <PageProblem title={missing ? 'Page not found' : 'Something went wrong'}>
        {missing
          ? 'This status page does not exist. Check the link in your e-mail.'
          : errorText(loaded.error, 'Failed to load this page.', 'Could not reach Ques. Try again.')}
      </PageProblem>
    );
  }
  return (
    <TimeZoneContext.Provider value={timeZone}>
      <ServerZoneContext.Provider value={serverZone}>
        {/* Loading and loaded take the same room (page-tall): nothing moves when the page arrives. */}
        <div
          className="status-shell page-tall"
          style={data ? themeVars(data.brandColorMain, data.brandColorLight) : undefined}
        >
          {data ? (
            <StatusView page={data} token={token} confirmation={confirmation} onChange={setPage} />
          ) : (
            <section className="page page--narrow">
              <LoadingText>Loading</LoadingText>
            </section>
          )}
        </div>
      </ServerZoneContext.Provider>
    </TimeZoneContext.Provider>
  );
}

/** Who may see the answer, as it stands: nothing about publishing once the question is settled without one. */
function consentText(page: QuestionStatusPage): string | null {
  const name = page.toName;
  if (page.status === 'Confirming' || page.status === 'Pending')
    return page.isPrivate ? 'Private — only you see the answer' : `May be published on ${name}'s page`;
  if (page.status !== 'Answered') return null;
  if (page.isPublic) return `Published on ${name}'s page`;
  return page.isPrivate ? 'Private — only you see the answer' : 'Not published — only you see the answer';
}

function StatusView({
  page,
  token,
  confirmation,
  onChange,
}: {
  page: QuestionStatusPage;
  token: string;
  confirmation: boolean;
  onChange: (page: QuestionStatusPage) => void;
}) {
  const name = page.toName;
  return (
    <section className="page page--narrow status-page" aria-labelledby="status-title">
      <header className="status-page__owner">
        <Avatar name={name} url={page.toAvatarUrl} size={56} priority alt="" />
        <h1 id="status-title" className="page__title status-page__title">
          Your question to <Link to={profilePath(page.toUsername)}>{name}</Link>
        </h1>
      </header>
      {confirmation ? <Confirmation page={page} token={token} /> : null}
      {page.status === 'Confirming' ? (
        // Only what stays once the payment is recorded: the rest appears below it then, moving nothing.
        confirmation ? null : (
          <LoadingText>Confirming your payment…</LoadingText>
        )
      ) : (
        <OrderDetails page={page} token={token} onChange={onChange} />
      )}
    </section>
  );
}

/** The question's state, timeline, the question itself, the answer, the tip, Withdraw and support. */
function OrderDetails({
  page,
  token,
  onChange,
}: {
  page: QuestionStatusPage;
  token: string;
  onChange: (page: QuestionStatusPage) => void;
}) {
  const name = page.toName;
  const consent = consentText(page);
  return (
    <>
      <p className="status-page__status">
        Status: <strong data-testid="status">{page.status}</strong>
        {consent ? (
          <span className="status-page__consent" data-testid="consent">
            {consent}
          </span>
        ) : null}
      </p>
      {page.answerPath ? (
        <p className="status-page__published">
          <Link to={page.answerPath} className="button button--primary">
            See the public answer on {name}’s page
          </Link>
        </p>
      ) : null}
      <Timeline page={page} />

      <article className="status-page__question">
        <h2>{page.question}</h2>
        {page.detail ? <p className="status-page__detail">{page.detail}</p> : null}
        <p className="status-page__asked">
          Asked <LocalTime iso={page.askedAt} />
        </p>
      </article>
      {page.publicQuestion !== null ? (
        <div className="status-page__question" data-testid="redacted">
          <p className="status-page__note">
            {name} redacted the public wording to remove personal details. Published as:
          </p>
          <h2>{page.publicQuestion}</h2>
          {page.publicDetail ? <p className="status-page__detail">{page.publicDetail}</p> : null}
        </div>
      ) : null}

      {page.answer !== null ? (
        <div className="status-page__answer">
          <h2>{name}’s answer</h2>
          <p>{page.answer}</p>
          {!page.isPublic ? <p className="status-page__note">Only you can see this answer.</p> : null}
        </div>
      ) : null}
      <TipLine page={page} />

      {page.status === 'Pending' ? <Withdraw page={page} token={token} onChange={onChange} /> : null}
      <p className="status-page__support">
        Something wrong with this question or a payment?{' '}
        <button type="button" className="text-link" onClick={openSupport}>
          Contact support
        </button>
      </p>
    </>
  );
}

/** The tip as it stands: held with the live countdown to its release, charged, or released. Below the answer. */
function TipLine({ page }: { page: QuestionStatusPage }) {
  const tip = page.tip;
  if (!tip) return null;
  const amount = formatCents(tip.amountCents, tip.currency);
  return (
    <div className="status-page__tip" data-testid="tip">
      {tip.state === 'held' ? (
        <>
          <p>
            Your card is held for {amount} — you are not charged unless {page.toName} answers.
          </p>
          {tip.releaseAt ? (
            <p data-testid="countdown">
              Released automatically in <Countdown deadline={tip.releaseAt} />, on{' '}
              <LocalTime iso={tip.releaseAt} />.
            </p>
          ) : null}
        </>
      ) : tip.state === 'charged' ? (
        <p>
          Charged {amount}
          {tip.chargedAt ? (
            <>
              {' '}
              on <LocalTime iso={tip.chargedAt} />
            </>
          ) : null}
          .
        </p>
      ) : (
        <p>Released — never charged.</p>
      )}
    </div>
  );
}
