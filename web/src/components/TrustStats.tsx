import { formatDuration, formatShare, TRUST_STATS_MIN_ANSWERED, type TrustStats } from '@ques/contracts/core';
import './trust-stats.css';

/*
 * Issue 15, public trust stats (docs/adr/0029): the owner's measured record over the last 90 days. Server-rendered
 * with the profile (its data travels with the page), no library: a definition list.
 */

function Figures({ stats }: { stats: TrustStats }) {
  const f = stats.figures!;
  return (
    <dl className="trust-stats__list">
      <div className="trust-stats__item">
        <dt>Median time to answer</dt>
        <dd data-testid="trust-median">{f.medianAnswerSeconds === null ? '—' : formatDuration(f.medianAnswerSeconds)}</dd>
      </div>
      <div className="trust-stats__item">
        <dt>Answered within {stats.windowDays} days</dt>
        <dd data-testid="trust-window">{f.answeredWithinWindow === null ? '—' : formatShare(f.answeredWithinWindow)}</dd>
      </div>
      <div className="trust-stats__item">
        <dt>Public answers</dt>
        <dd data-testid="trust-public">{f.publicAnswers}</dd>
      </div>
    </dl>
  );
}

/** On the public profile: the figures once established, "New on Ques" before; nothing while unknown. */
export function PublicTrustStats({ stats }: { stats: TrustStats | null | undefined }) {
  if (!stats) return null;
  if (!stats.established || !stats.figures)
    return (
      <p className="trust-stats trust-stats--new" data-testid="trust-new">
        New on Ques
      </p>
    );
  return (
    <section className="trust-stats" aria-labelledby="trust-heading" data-testid="trust-stats">
      <h2 id="trust-heading" className="trust-stats__heading">
        Answer record, last {stats.periodDays} days
      </h2>
      <Figures stats={stats} />
    </section>
  );
}

/** In the admin area: the owner's own figures, whether or not they are shown yet, with what they mean. */
export function OwnerTrustStats({ stats }: { stats: TrustStats }) {
  return (
    <section className="trust-stats trust-stats--owner" aria-labelledby="owner-trust-heading" data-testid="owner-trust-stats">
      <h2 id="owner-trust-heading" className="trust-stats__heading">
        Your answer record, last {stats.periodDays} days
      </h2>
      {stats.figures ? <Figures stats={stats} /> : null}
      <p className="trust-stats__note">
        {stats.established
          ? 'Visitors see these figures on your public page.'
          : `Your page says “New on Ques” until ${TRUST_STATS_MIN_ANSWERED} questions from the last ${stats.periodDays} days are answered.`}{' '}
        Measured from when a question was asked to when you answered it; private questions count in the rates but are
        never shown. A question still inside its {stats.windowDays}-day window is not counted as missed.
      </p>
    </section>
  );
}
