import { useEffect, useId, useState } from 'react';
import { ErrorBanner, LoadingText, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { ApiError } from '../../lib/api';
import { leaveTo } from '../../lib/browser';
import { useDocumentHead } from '../../lib/head';
import { formatDate } from '../../lib/text';
import { useAuth } from '../auth/auth-context';
import {
  connectPayoutAccount,
  fetchAccountStatus,
  fetchEarnings,
  fetchOwnTipOptions,
  saveTipOptions,
  type AccountStatus,
  type Earnings,
} from './api';
import { countryFromLocale, countryName, PAYOUT_COUNTRIES } from './country';
import {
  addTipOption,
  canAdd,
  changeTipOption,
  defaultTipOptions,
  fromServer,
  MAX_TIP_OPTIONS,
  removeTipOption,
  TIP_OPTION_VALUES,
  tippingBlockedBy,
  type EditableTipOption,
  type TipOptionValue,
} from './tip-options';
import './payment.css';

export const PAYMENT_MESSAGES = {
  mustBeLoggedIn: 'You must be logged in to set up your Stripe account.',
  connectFailed: 'Error connecting your Stripe account.',
  saveFailed: 'Failed to save payment options.',
  saved: 'Payment options saved successfully!',
} as const;

/** A client error's own message (validation) is more useful than the generic text; server faults get the generic one. */
const messageFor = (err: unknown, generic: string) =>
  err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.serverMessage
    ? err.serverMessage
    : generic;

/** Payment settings (spec §2 "Payment", §4 "Tipping", §8 payment messages) and what the owner has earned. */
export default function PaymentPage() {
  useDocumentHead({ title: 'Payment — Ques', description: 'Tipping and payouts.', canonical: '/admin/payment' });
  const { user } = useAuth();
  const userId = user ? user.id || user._id : '';
  const ids = { switch: useId(), switchError: useId(), country: useId() };

  const [loading, setLoading] = useState(true);
  const [account, setAccount] = useState<AccountStatus | null>(null);
  const [accountError, setAccountError] = useState('');
  const [options, setOptions] = useState<readonly EditableTipOption[]>(defaultTipOptions);
  const [tippingEnabled, setTippingEnabled] = useState(false);
  const [tippingError, setTippingError] = useState('');
  const [country, setCountry] = useState(() => countryFromLocale());
  const [connecting, setConnecting] = useState(false);
  const [connectError, setConnectError] = useState('');
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState('');
  const [success, showSuccess] = useSuccessMessage();

  useEffect(() => {
    if (!userId) return;
    const controller = new AbortController();
    const { signal } = controller;
    setLoading(true);
    void Promise.all([
      fetchAccountStatus(userId, signal).then(
        (status) => {
          setAccount(status);
          setAccountError('');
        },
        (err: unknown) => {
          if (signal.aborted) return;
          console.warn('Payout account status failed to load', err);
          setAccount(null);
          setAccountError('We could not load your Stripe account status. Please reload the page to try again.');
        },
      ),
      fetchOwnTipOptions(userId, signal).then(
        (saved) => {
          setOptions(fromServer(saved.tipOptions));
          setTippingEnabled(saved.tippingEnabled);
        },
        (err: unknown) => {
          if (signal.aborted) return;
          // Spec §4: a failed load resets to the defaults with tipping off.
          console.warn('Tip options failed to load; showing the defaults', err);
          setOptions(defaultTipOptions());
          setTippingEnabled(false);
        },
      ),
    ]).then(() => {
      if (!signal.aborted) setLoading(false);
    });
    return () => controller.abort();
  }, [userId]);

  const toggleTipping = (on: boolean) => {
    setSaveError('');
    if (on) {
      const blocked = tippingBlockedBy(account);
      if (blocked) {
        setTippingError(blocked);
        return;
      }
    }
    setTippingError('');
    setTippingEnabled(on);
  };

  const connect = async () => {
    setConnectError('');
    if (!user || !userId) {
      setConnectError(PAYMENT_MESSAGES.mustBeLoggedIn);
      return;
    }
    setConnecting(true);
    try {
      const { url } = await connectPayoutAccount(userId, country);
      if (!url) throw new Error('no onboarding url');
      leaveTo(url);
    } catch (err) {
      console.warn('Connecting the payout account failed', err);
      setConnectError(PAYMENT_MESSAGES.connectFailed);
      setConnecting(false);
    }
  };

  const save = async () => {
    setSaveError('');
    setSaving(true);
    try {
      const saved = await saveTipOptions(
        userId,
        options.map(({ id, value, removable }) => ({ id, value, removable })),
        tippingEnabled,
      );
      if (Array.isArray(saved?.tipOptions)) setOptions(fromServer(saved.tipOptions));
      if (typeof saved?.tippingEnabled === 'boolean') setTippingEnabled(saved.tippingEnabled);
      showSuccess(PAYMENT_MESSAGES.saved);
    } catch (err) {
      setSaveError(messageFor(err, PAYMENT_MESSAGES.saveFailed));
    }
    setSaving(false);
  };

  if (!user) return null;
  const hasAccount = Boolean(account?.stripeAccountId);
  const completed = account?.stripeAccountStatus === 'completed';

  return (
    <section className="admin-page payment">
      <h1 className="admin-page__title">Payment</h1>
      <SuccessBanner message={success} className="payment__success" />

      {loading ? (
        <LoadingText>Loading payment settings…</LoadingText>
      ) : (
        <>
          <div className="payment__card">
            <div className="payment__card-head">
              <h2 className="payment__heading">Tipping</h2>
              <label className="switch" htmlFor={ids.switch}>
                <input
                  id={ids.switch}
                  type="checkbox"
                  role="switch"
                  className="switch__input"
                  checked={tippingEnabled}
                  aria-describedby={tippingError ? ids.switchError : undefined}
                  onChange={(e) => toggleTipping(e.target.checked)}
                />
                <span className="switch__track" aria-hidden="true">
                  <span className="switch__thumb" />
                </span>
                <span className="switch__label">Enabling Tipping</span>
              </label>
            </div>
            <p className="field__hint">
              With tipping on, people who ask you a question can add a tip. It is held on their card and only charged
              when you answer; unanswered questions are released after 5 days. Ques keeps 10%.
            </p>
            <ErrorBanner id={ids.switchError}>{tippingError}</ErrorBanner>

            <fieldset className="tip-options">
              <legend className="field__label">Tip amounts</legend>
              <ol className="tip-options__list">
                {options.map((option, index) => (
                  <TipOptionRow
                    key={option.id}
                    index={index}
                    option={option}
                    options={options}
                    onChange={(value) => setOptions((o) => changeTipOption(o, option.id, value))}
                    onRemove={() => setOptions((o) => removeTipOption(o, option.id))}
                  />
                ))}
              </ol>
              <div className="tip-options__add">
                <button
                  type="button"
                  className="button button--ghost button--small"
                  disabled={!canAdd(options)}
                  onClick={() => setOptions((o) => addTipOption(o))}
                >
                  Add tip option
                </button>
                <span className="field__hint">
                  {options.length} of {MAX_TIP_OPTIONS} options
                </span>
              </div>
            </fieldset>
          </div>

          <div className="payment__card">
            <h2 className="payment__heading">Payout Method</h2>
            <p className={`payout-status payout-status--${completed ? 'ok' : hasAccount ? 'pending' : 'none'}`}>
              <span className="payout-status__dot" aria-hidden="true" />
              {completed
                ? 'Your Stripe account is connected and ready to receive tips.'
                : hasAccount
                  ? 'Your Stripe account is not complete yet. Finish setting it up to enable tipping.'
                  : 'No Stripe account connected yet. Connect one to receive tips.'}
            </p>
            <ErrorBanner>{accountError}</ErrorBanner>
            {hasAccount ? null : (
              <div className="field payout__country">
                <label htmlFor={ids.country} className="field__label">
                  Country
                </label>
                <select id={ids.country} className="input" value={country} onChange={(e) => setCountry(e.target.value)}>
                  {[...PAYOUT_COUNTRIES]
                    .map((code) => ({ code, name: countryName(code) }))
                    .sort((a, b) => a.name.localeCompare(b.name))
                    .map(({ code, name }) => (
                      <option key={code} value={code}>
                        {name}
                      </option>
                    ))}
                </select>
                <p className="field__hint">Where you or your business are based. It cannot be changed later.</p>
              </div>
            )}
            <div>
              <button
                type="button"
                className="button button--ghost"
                disabled={connecting}
                onClick={() => void connect()}
              >
                {connecting ? 'Opening Stripe…' : hasAccount ? 'Edit Stripe account' : 'Connect Stripe account'}
              </button>
            </div>
            <ErrorBanner>{connectError}</ErrorBanner>
          </div>

          <div className="payment__actions">
            <ErrorBanner>{saveError}</ErrorBanner>
            <button type="button" className="button button--primary" disabled={saving} onClick={() => void save()}>
              {saving ? 'Saving…' : 'Save Payment Settings'}
            </button>
          </div>

          <EarningsSection />
        </>
      )}
    </section>
  );
}

interface TipOptionRowProps {
  index: number;
  option: EditableTipOption;
  options: readonly EditableTipOption[];
  onChange: (value: TipOptionValue) => void;
  onRemove: () => void;
}

function TipOptionRow({ index, option, options, onChange, onRemove }: TipOptionRowProps) {
  const id = useId();
  const label = `Tip amount Option ${index + 1}`;
  return (
    <li className="tip-option">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="tip-option__controls">
        <select
          id={id}
          className="input"
          value={option.value}
          // $0 is always offered (spec §3): its selector is fixed.
          disabled={!option.removable}
          onChange={(e) => onChange(e.target.value as TipOptionValue)}
        >
          {TIP_OPTION_VALUES.filter((v) => (option.removable ? v !== '$0' : v === '$0')).map((value) => (
            <option key={value} value={value} disabled={options.some((o) => o.id !== option.id && o.value === value)}>
              {value}
            </option>
          ))}
        </select>
        {option.removable ? (
          <button type="button" className="button button--ghost button--small" aria-label={`Remove ${label}`} onClick={onRemove}>
            Remove
          </button>
        ) : (
          <span className="tip-option__fixed">Always offered</span>
        )}
      </div>
    </li>
  );
}

function formatCents(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `$${(cents / 100).toFixed(2)}`;
  }
}

/** Captured tips: amount, the platform's fee and the net (spec §1: 10%). Nothing at all when the server has none (404). */
function EarningsSection() {
  const [state, setState] = useState<{ status: 'loading' } | { status: 'error' } | { status: 'ready'; earnings: Earnings | null }>({
    status: 'loading',
  });

  useEffect(() => {
    const controller = new AbortController();
    fetchEarnings(controller.signal).then(
      (earnings) => setState({ status: 'ready', earnings }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Earnings failed to load', err);
        setState({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, []);

  if (state.status === 'ready' && !state.earnings) return null;
  return (
    <section className="payment__card earnings" aria-labelledby="earnings-heading">
      <h2 id="earnings-heading" className="payment__heading">
        Earnings
      </h2>
      {state.status === 'loading' ? (
        <LoadingText>Loading earnings…</LoadingText>
      ) : state.status === 'error' ? (
        <ErrorBanner>Failed to load your earnings.</ErrorBanner>
      ) : (
        <EarningsBody earnings={state.earnings!} />
      )}
    </section>
  );
}

function EarningsBody({ earnings }: { earnings: Earnings }) {
  const { totals, entries } = earnings;
  const money = (cents: number, currency = totals.currency) => formatCents(cents, currency || 'usd');
  return (
    <>
      <dl className="earnings__totals">
        <div>
          <dt>Tips captured</dt>
          <dd>{totals.count}</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd>{money(totals.amount)}</dd>
        </div>
        <div>
          <dt>Platform fee</dt>
          <dd>{money(totals.applicationFee)}</dd>
        </div>
        <div className="earnings__net">
          <dt>Net</dt>
          <dd>{money(totals.net)}</dd>
        </div>
      </dl>
      {entries.length === 0 ? (
        <p className="empty-state">No tips captured yet. A tip is captured when you answer its question.</p>
      ) : (
        <table className="earnings__table">
          <caption className="visually-hidden">Captured tips</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Amount</th>
              <th scope="col">Platform fee</th>
              <th scope="col">Net</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.questionId}>
                <td>{formatDate(e.capturedAt)}</td>
                <td>{money(e.amount, e.currency)}</td>
                <td>{money(e.applicationFee, e.currency)}</td>
                <td>{money(e.net, e.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
