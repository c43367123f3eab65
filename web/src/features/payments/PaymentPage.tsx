import { formatCents, type EarningsResponse } from '@ques/contracts/core';
import { ErrorBanner, LoadingText } from '../../components/Banner';
import { DataTable, type Column } from '../../components/DataTable';
import { useAuth } from '../../lib/auth/auth-context';
import { usePageHead } from '../../lib/head';
import { formatDate } from '../../lib/text';
import { useApiData } from '../../lib/use-api-data';
import { fetchAccountStatus, fetchEarnings, fetchOwnTipOptions, type AccountStatus } from './api';
import { PayoutsSection } from './PayoutsSection';
import { defaultTipOptions, fromServer, type EditableTipOption } from './tip-options';
import { TippingSection } from './TippingSection';
import './payment.css';

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

/**
 * Payment settings (spec §2 "Payment", §4 "Tipping", §8 payment messages) and what the owner has earned. Payouts come
 * first, then tipping unlocks (issue 28).
 */
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

/** Each save says what it did in a toast (issue 28); its failure stays next to its control. */
function PaymentSettingsForm({ userId, initial }: { userId: string; initial: PaymentSettings }) {
  return (
    <>
      <PayoutsSection userId={userId} account={initial.account} loadError={initial.accountError} />
      <TippingSection
        userId={userId}
        account={initial.account}
        initialOptions={initial.options}
        initialEnabled={initial.tippingEnabled}
      />
      <EarningsSection />
    </>
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
