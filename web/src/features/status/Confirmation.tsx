import { useState } from 'react';
import { formatCents, heldSplitText, STATUS_PAGE_PATH, type QuestionStatusPage } from '@ques/contracts/core';
import { siteOrigin } from '../../lib/head';
import { LocalTime } from './clock';

/**
 * Right after asking or paying (issue 28, `/q/{token}?confirmed=1`): the amount held and its split, the release date
 * in the viewer's zone, what happens next, and the link to keep. A free question: the same without the money lines.
 * While the provider's authorization is not recorded yet, the release line says it is confirming (same place, same
 * height: nothing moves when it arrives).
 */
export function Confirmation({ page, token }: { page: QuestionStatusPage; token: string }) {
  const name = page.toName;
  const tip = page.tip;
  const amount = tip ? formatCents(tip.amountCents, tip.currency) : '';
  return (
    <section className="status-confirmation" aria-labelledby="confirmation-title" data-testid="confirmation">
      <h2 id="confirmation-title" className="status-confirmation__title">
        Your question was sent to {name}.
      </h2>
      {tip ? (
        <>
          <p className="status-confirmation__money" data-testid="money">
            {heldSplitText(name, tip.amountCents, tip.currency)}
          </p>
          <p className="status-confirmation__release" data-testid="release" role="status">
            {page.status === 'Confirming' ? (
              'Confirming your payment…'
            ) : tip.releaseAt && tip.state === 'held' ? (
              <>
                If {name} hasn’t answered by <LocalTime iso={tip.releaseAt} />, the hold is released — you’re never
                charged.
              </>
            ) : tip.state === 'charged' ? (
              `${name} answered: ${amount} was charged.`
            ) : (
              'The hold was released — you were never charged.'
            )}
          </p>
        </>
      ) : null}
      <h3 className="status-confirmation__next">What happens next</h3>
      <ol className="status-confirmation__steps">
        <li>{name} gets your question by e-mail.</li>
        <li>
          {tip
            ? `When ${name} answers, you get an e-mail and your card is charged ${amount} (${name} receives 90 %).`
            : `When ${name} answers, you get an e-mail.`}
          {page.emailConfirmed ? null : ' Open the link we e-mailed you first: it confirms your address.'}
        </li>
        <li>Until then you can withdraw it here{tip ? ' — the hold is released at once' : ''}.</li>
      </ol>
      <StatusLink token={token} />
    </section>
  );
}

/** The status link with a Copy button: the way back to this page (also for signed-in askers). */
function StatusLink({ token }: { token: string }) {
  // The public origin (the server render has no window; in the browser it is the one the page was served on).
  const url = `${siteOrigin()}${STATUS_PAGE_PATH}${token}`;
  const [copied, setCopied] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Link copied.');
    } catch {
      setCopied('Could not copy: select the link and copy it.');
    }
  }
  return (
    <div className="status-link">
      <label htmlFor="status-link" className="status-link__label">
        Keep this link to follow your question:
      </label>
      <div className="status-link__row">
        <input id="status-link" className="input status-link__input" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void copy()}>
          Copy link
        </button>
      </div>
      <p className="status-link__copied" role="status" aria-live="polite">
        {copied}
      </p>
    </div>
  );
}
