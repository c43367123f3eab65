import { useId, useState } from 'react';
import {
  formatCents,
  MAX_TIP_OPTIONS,
  PAYMENT_MESSAGES,
  PLATFORM_FEE_PERCENT,
  TIP_OPTION_VALUES,
  type EarningsResponse,
  type TipOptionValue,
} from '@ques/contracts/core';
import { ErrorBanner, LoadingText, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { DataTable, type Column } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth/auth-context';
import { leaveTo } from '../../lib/browser';
import { usePageHead } from '../../lib/head';
import { formatDate } from '../../lib/text';
import { useApiData } from '../../lib/use-api-data';
import {
  connectPayoutAccount,
  fetchAccountStatus,
  fetchEarnings,
  fetchOwnTipOptions,
  saveTipOptions,
  type AccountStatus,
} from './api';
import { countryFromLocale, countryName, PAYOUT_COUNTRIES } from './country';
import {
  addTipOption,
  canAdd,
  changeTipOption,
  defaultTipOptions,
  fromServer,
  removeTipOption,
  tippingBlockedBy,
  type EditableTipOption,
} from './tip-options';
import './payment.css';

/** A client error's own message (validation) is more useful than the generic text; server faults get the generic one. */
const messageFor = (err: unknown, generic: string) =>
  err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.serverMessage
    ? err.serverMessage
    : generic;

interface PaymentSettings {
  account: AccountStatus | null;
  accountError: string;
  options: EditableTipOption[];
  tippingEnabled: boolean;
}

/** The payout account and the tip options; each falls back on its own (spec §4: failed options → defaults, off). */
async function loadPaymentSettings(userId: string, signal: AbortSignal): Promise<PaymentSettings> {
  const [account, tips] = await Promise.all([
    fetchAccountStatus(userId, signal).then(
      (status) => ({ account: status, accountError: '' }),
      (err: unknown) => {
        if (signal.aborted) throw err;
        console.warn('Payout account status failed to load', err);
        return {
          account: null,
          accountError: 'We could not load your Stripe account status. Please reload the page to try again.',
        };
      },
    ),
    fetchOwnTipOptions(userId, signal).then(
      (saved) => ({ options: fromServer(saved.tipOptions), tippingEnabled: saved.tippingEnabled }),
      (err: unknown) => {
        if (signal.aborted) throw err;
        console.warn('Tip options failed to load; showing the defaults', err);
        return { options: defaultTipOptions(), tippingEnabled: false };
      },
    ),
  ]);
  return { ...account, ...tips };
}

/** Payment settings (spec §2 "Payment", §4 "Tipping", §8 payment messages) and what the owner has earned. */
export default function PaymentPage() {
  usePageHead('Payment — Ques', 'Tipping and payouts.', '/admin/payment');
  const { user } = useAuth();
  const userId = user ? user.id || user._id : '';
  const settings = useApiData((signal) => loadPaymentSettings(userId, signal), [userId]);

  if (!user) return null;
  return (
    <section className="admin-page payment">
      <h1 className="admin-page__title">Payment</h1>
      {settings.data ? (
        <PaymentSettingsForm key={userId} userId={userId} initial={settings.data} />
      ) : (
        <LoadingText>Loading payment settings…</LoadingText>
      )}
    </section>
  );
}

function PaymentSettingsForm({ userId, initial }: { userId: string; initial: PaymentSettings }) {
  const [account] = useState(initial.account);
  const [options, setOptions] = useState<readonly EditableTipOption[]>(initial.options);
  const [tippingEnabled, setTippingEnabled] = useState(initial.tippingEnabled);
  const [tippingError, setTippingError] = useState('');
  const [country, setCountry] = useState(() => countryFromLocale());
  const [connecting, setConnecting] = useState(false);
  const [connectError, setConnectError] = useState('');
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState('');
  const [success, showSuccess] = useSuccessMessage();
  const switchErrorId = useId();

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
    if (!userId) {
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

  const hasAccount = Boolean(account?.stripeAccountId);
  const completed = account?.stripeAccountStatus === 'completed';

  return (
    <>
      <SuccessBanner message={success} className="payment__success" />
      <div className="panel payment__card">
        <div className="panel payment__card-head">
          <h2 className="payment__heading">Tipping</h2>
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              className="switch__input input-overlay"
              checked={tippingEnabled}
              aria-describedby={tippingError ? switchErrorId : undefined}
              onChange={(e) => toggleTipping(e.target.checked)}
            />
            <span className="switch__track" aria-hidden="true">
              <span className="switch__thumb" />
            </span>
            <span className="switch__label">Enabling Tipping</span>
          </label>
        </div>
        <p className="field__hint">
          With tipping on, people who ask you a question can add a tip. It is held on their card and only charged when
          you answer; unanswered questions are released after 5 days. Ques keeps {PLATFORM_FEE_PERCENT}%.
        </p>
        <ErrorBanner id={switchErrorId}>{tippingError}</ErrorBanner>

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

      <div className="panel payment__card">
        <h2 className="payment__heading">Payout Method</h2>
        <p className={`payout-status payout-status--${completed ? 'ok' : hasAccount ? 'pending' : 'none'}`}>
          <span className="payout-status__dot" aria-hidden="true" />
          {completed
            ? 'Your Stripe account is connected and ready to receive tips.'
            : hasAccount
              ? 'Your Stripe account is not complete yet. Finish setting it up to enable tipping.'
              : 'No Stripe account connected yet. Connect one to receive tips.'}
        </p>
        <ErrorBanner>{initial.accountError}</ErrorBanner>
        {hasAccount ? null : (
          <Field
            label="Country"
            className="payout__country"
            hint="Where you or your business are based. It cannot be changed later."
          >
            {(field) => (
              <select {...field} className="input" value={country} onChange={(e) => setCountry(e.target.value)}>
                {[...PAYOUT_COUNTRIES]
                  .map((code) => ({ code, name: countryName(code) }))
                  .sort((a, b) => a.name.localeCompare(b.name))
                  .map(({ code, name }) => (
                    <option key={code} value={code}>
                      {name}
                    </option>
                  ))}
              </select>
            )}
          </Field>
        )}
        <div>
          <button type="button" className="button button--ghost" disabled={connecting} onClick={() => void connect()}>
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
  const label = `Tip amount Option ${index + 1}`;
  return (
    <Field as="li" className="tip-option" label={label}>
      {(field) => (
        <div className="tip-option__controls">
          <select
            {...field}
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
      )}
    </Field>
  );
}

/** Captured tips: amount, the platform's fee and the net (spec §1: 10%). Nothing at all when the server has none (404). */
function EarningsSection() {
  const earnings = useApiData(
    (signal) =>
      fetchEarnings(signal).catch((err: unknown) => {
        if (!signal.aborted) console.warn('Earnings failed to load', err);
        throw err;
      }),
    [],
  );

  if (earnings.status === 'ready' && !earnings.data) return null;
  return (
    <section className="panel payment__card earnings" aria-labelledby="earnings-heading">
      <h2 id="earnings-heading" className="payment__heading">
        Earnings
      </h2>
      {earnings.status === 'loading' ? (
        <LoadingText>Loading earnings…</LoadingText>
      ) : earnings.status === 'error' || !earnings.data ? (
        <ErrorBanner>Failed to load your earnings.</ErrorBanner>
      ) : (
        <EarningsBody earnings={earnings.data} />
      )}
    </section>
  );
}

function EarningsBody({ earnings }: { earnings: EarningsResponse }) {
  const { totals, entries } = earnings;
  const money = (cents: number, currency = totals.currency) => formatCents(cents, currency || 'usd');
  const columns: Column<EarningsResponse['entries'][number]>[] = [
    { header: 'Date', cell: (e) => formatDate(e.capturedAt) },
    { header: 'Amount', cell: (e) => money(e.amount, e.currency) },
    { header: 'Platform fee', cell: (e) => money(e.applicationFee, e.currency) },
    { header: 'Net', cell: (e) => money(e.net, e.currency) },
  ];
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
        <DataTable
          className="earnings__table"
          caption="Captured tips"
          columns={columns}
          rows={entries}
          rowKey={(e) => e.questionId}
        />
      )}
    </>
  );
}
