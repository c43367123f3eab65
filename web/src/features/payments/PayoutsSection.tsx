import { useState, type FormEvent } from 'react';
import { PAYMENT_MESSAGES } from '@ques/contracts/core';
import { ErrorBanner } from '../../components/Banner';
import { ErrorSummary } from '../../components/ErrorSummary';
import { Field } from '../../components/Field';
import { useFieldErrors } from '../../components/use-field-errors';
import { leaveTo } from '../../lib/browser';
import { connectPayoutAccount, type AccountStatus } from './api';
import { countryFromLocale, countryName, PAYOUT_COUNTRIES } from './country';

/** The anchor the tipping switch links to while payouts are not connected. */
export const PAYOUTS_ANCHOR = 'payouts';

const COUNTRY_OPTIONS = [...PAYOUT_COUNTRIES]
  .map((code) => ({ code, name: countryName(code) }))
  .sort((a, b) => a.name.localeCompare(b.name));

/**
 * "Connect payouts" (issue 28): the first thing on the payment page. The country is chosen explicitly (prefilled from
 * the browser's locale, never assumed) and confirmed — it cannot be changed later — before the provider's onboarding.
 */
export function PayoutsSection({ userId, account, loadError }: { userId: string; account: AccountStatus | null; loadError: string }) {
  const [country, setCountry] = useState(() => countryFromLocale());
  // The form's one rule, shown under the select after a try (issue 28): a country is never assumed.
  const form = useFieldErrors(() => ({ country: country ? undefined : PAYMENT_MESSAGES.chooseCountry }));
  const [confirming, setConfirming] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const [connectError, setConnectError] = useState('');

  const hasAccount = Boolean(account?.stripeAccountId);
  const completed = account?.stripeAccountStatus === 'completed';

  const connect = async (chosen: string) => {
    setConnectError('');
    if (!userId) {
      setConnectError(PAYMENT_MESSAGES.mustBeLoggedIn);
      return;
    }
    setConnecting(true);
    try {
      const { url } = await connectPayoutAccount(userId, chosen);
      if (!url) throw new Error('no onboarding url');
      leaveTo(url);
    } catch (err) {
      console.warn('Connecting the payout account failed', err);
      setConnectError(PAYMENT_MESSAGES.connectFailed);
      setConnecting(false);
    }
  };

  const askToConfirm = (e: FormEvent) => {
    e.preventDefault();
    if (form.attempt()) setConfirming(true);
  };

  return (
    <section className="panel payment__card" id={PAYOUTS_ANCHOR} aria-labelledby="payouts-heading">
      <h2 id="payouts-heading" className="payment__heading">
        {completed ? 'Payouts connected' : 'Connect payouts'}
      </h2>
      <p className={`payout-status payout-status--${completed ? 'ok' : hasAccount ? 'pending' : 'none'}`}>
        <span className="payout-status__dot" aria-hidden="true" />
        {completed
          ? `Your payout account${account?.country ? ` in ${countryName(account.country)}` : ''} is ready to receive tips.`
          : hasAccount
            ? 'Your payout account is not complete yet. Finish setting it up to turn tipping on.'
            : 'Connect a payout account first: tips are paid out to it. Then turn tipping on.'}
      </p>
      <ErrorBanner>{loadError}</ErrorBanner>
      {hasAccount ? (
        <div>
          <button
            type="button"
            className={`button ${completed ? 'button--ghost' : 'button--primary'}`}
            disabled={connecting}
            onClick={() => void connect(account?.country ?? country)}
          >
            {connecting ? 'Opening the payout set-up…' : completed ? 'Edit payout account' : 'Finish setting up payouts'}
          </button>
        </div>
      ) : confirming ? (
        <div className="payout-confirm" role="group" aria-labelledby="payout-confirm-text">
          <p id="payout-confirm-text" className="payout-confirm__text">
            Your payouts will go to an account in <strong>{countryName(country)}</strong>. The country cannot be changed
            later.
          </p>
          <div className="payout-confirm__actions">
            <button type="button" className="button button--primary" disabled={connecting} onClick={() => void connect(country)}>
              {connecting ? 'Opening the payout set-up…' : `Confirm ${countryName(country)} and continue`}
            </button>
            <button type="button" className="button button--ghost" disabled={connecting} onClick={() => setConfirming(false)}>
              Change country
            </button>
          </div>
        </div>
      ) : (
        <form className="payout__form" noValidate onSubmit={askToConfirm}>
          <Field
            label="Payout country"
            className="payout__country"
            hint="Where you or your business are based. It cannot be changed later."
            {...form.field('country')}
          >
            {(field) => (
              <select {...field} className="input" value={country} onChange={(e) => setCountry(e.target.value)}>
                {country ? null : <option value="">Choose your country</option>}
                {COUNTRY_OPTIONS.map(({ code, name }) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <ErrorSummary count={form.count} />
          <div>
            <button type="submit" className="button button--primary">
              Connect payouts
            </button>
          </div>
        </form>
      )}
      <ErrorBanner>{connectError}</ErrorBanner>
    </section>
  );
}
