import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { leaveTo } from '../../lib/browser';
import { json } from '../../test/fetch-mock';
import { renderAdmin } from '../../test/render-app';
import { countryFromLocale } from './country';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));

const DEFAULTS = [
  { id: 'tip-0', value: '$0', removable: false },
  { id: 'tip-5', value: '$5', removable: true },
  { id: 'tip-25', value: '$25', removable: true },
  { id: 'tip-50', value: '$50', removable: true },
  { id: 'tip-custom', value: 'Custom', removable: true },
];
const noAccount = { userId: 'u1', stripeAccountId: null, stripeAccountStatus: null };
const pending = { userId: 'u1', stripeAccountId: 'acct_1', stripeAccountStatus: 'pending' };
const completed = { userId: 'u1', stripeAccountId: 'acct_1', stripeAccountStatus: 'completed' };

let restore: (() => void) | undefined;
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => restore?.());

async function openPayment(routes: Parameters<typeof renderAdmin>[1] = {}) {
  const result = renderAdmin('/admin/payment', {
    'GET /api/payments/account-status': () => json(noAccount),
    'GET /api/payments/tipOptions': () => json({ tipOptions: DEFAULTS, tippingEnabled: false }),
    'GET /api/payments/earnings': () => json({ message: 'Not found' }, { status: 404 }),
    ...routes,
  });
  restore = result.mock.restore;
  await screen.findByRole('switch', { name: 'Enabling Tipping' });
  return result;
}

const selectors = () => screen.getAllByRole('combobox', { name: /^Tip amount Option \d$/ });

describe('payment settings (spec §2 Payment, §4 Tipping, §8)', () => {
  it('will not turn tipping on without a payout account', async () => {
    const { user } = await openPayment();
    await user.click(screen.getByRole('switch', { name: 'Enabling Tipping' }));
    expect(screen.getByText('Please set up your Stripe Connect account first.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Enabling Tipping' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Connect Stripe account' })).toBeInTheDocument();
  });

  it('will not turn tipping on before the payout account is complete', async () => {
    const { user } = await openPayment({ 'GET /api/payments/account-status': () => json(pending) });
    await user.click(screen.getByRole('switch', { name: 'Enabling Tipping' }));
    expect(screen.getByText('Please complete your Stripe Connect account before enabling tipping.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Enabling Tipping' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Edit Stripe account' })).toBeInTheDocument();
  });

  it('turns tipping on with a completed account and saves the options', async () => {
    const { mock, user } = await openPayment({
      'GET /api/payments/account-status': () => json(completed),
      'PUT /api/payments/tipOptions': (call) => json({ ...(call.body as object), message: 'Payment options saved successfully!' }),
    });
    await user.click(screen.getByRole('switch', { name: 'Enabling Tipping' }));
    expect(screen.getByRole('switch', { name: 'Enabling Tipping' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Remove Tip amount Option 4' }));
    await user.click(screen.getByRole('button', { name: 'Save Payment Settings' }));
    expect(await screen.findByText('Payment options saved successfully!')).toBeInTheDocument();
    const body = mock.calls.find((c) => c.method === 'PUT')?.body as { userId: string; tipOptions: { value: string }[]; tippingEnabled: boolean };
    expect(body.userId).toBe('u1');
    expect(body.tippingEnabled).toBe(true);
    expect(body.tipOptions.map((o) => o.value)).toEqual(['$0', '$5', '$25', 'Custom']);
  });

  it('shows the save failure', async () => {
    const { user } = await openPayment({ 'PUT /api/payments/tipOptions': () => json({ message: 'down' }, { status: 500 }) });
    await user.click(screen.getByRole('button', { name: 'Save Payment Settings' }));
    expect(await screen.findByText('Failed to save payment options.')).toBeInTheDocument();
  });

  it('keeps at most 5 tip options: $0 cannot be removed, Add is disabled at 5', async () => {
    const { user } = await openPayment();
    expect(selectors()).toHaveLength(5);
    expect(selectors()[0]).toHaveValue('$0');
    expect(selectors()[0]).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Remove Tip amount Option 1' })).not.toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add tip option' });
    expect(add).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Remove Tip amount Option 2' }));
    expect(selectors().map((s) => (s as HTMLSelectElement).value)).toEqual(['$0', '$25', '$50', 'Custom']);
    expect(add).toBeEnabled();
    await user.click(add);
    expect(selectors()).toHaveLength(5);
    expect(add).toBeDisabled();

    // Only the allowed values, and none offered twice.
    const second = selectors()[1] as HTMLSelectElement;
    expect(Array.from(second.options).map((o) => o.value)).toEqual(['$1', '$5', '$10', '$25', '$50', '$100', '$250', '$500', '$1000', 'Custom']);
    await user.selectOptions(second, '$1000');
    expect(second).toHaveValue('$1000');
    expect(within(second).getByRole('option', { name: '$50' })).toBeDisabled();
  });

  it('falls back to the defaults with tipping off when the options fail to load', async () => {
    await openPayment({ 'GET /api/payments/tipOptions': () => json({ message: 'down' }, { status: 500 }) });
    expect(selectors().map((s) => (s as HTMLSelectElement).value)).toEqual(['$0', '$5', '$25', '$50', 'Custom']);
    expect(screen.getByRole('switch', { name: 'Enabling Tipping' })).not.toBeChecked();
  });

  it('connects a Stripe account for the browser’s country and goes to the onboarding page', async () => {
    const { mock, user } = await openPayment({
      'POST /api/payments/connect': () => json({ url: 'https://connect.example/onboarding/acct_9', stripeAccountId: 'acct_9' }),
    });
    // jsdom's locale is en-US.
    expect(screen.getByLabelText('Country')).toHaveValue('US');
    await user.selectOptions(screen.getByLabelText('Country'), 'GB');
    await user.click(screen.getByRole('button', { name: 'Connect Stripe account' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://connect.example/onboarding/acct_9'));
    expect(mock.calls.find((c) => c.method === 'POST')?.body).toEqual({ userId: 'u1', country: 'GB' });
  });

  it('says when connecting fails', async () => {
    const { user } = await openPayment({ 'POST /api/payments/connect': () => json({ message: 'x' }, { status: 503 }) });
    await user.click(screen.getByRole('button', { name: 'Connect Stripe account' }));
    expect(await screen.findByText('Error connecting your Stripe account.')).toBeInTheDocument();
  });

  it('shows captured earnings: amount, platform fee and net', async () => {
    await openPayment({
      'GET /api/payments/earnings': () =>
        json({
          totals: { count: 1, amount: 500, applicationFee: 50, net: 450, currency: 'usd' },
          entries: [{ questionId: 'q1', amount: 500, applicationFee: 50, net: 450, currency: 'usd', capturedAt: '2025-03-15T10:00:00.000Z' }],
        }),
    });
    const earnings = await screen.findByRole('region', { name: 'Earnings' });
    await within(earnings).findByRole('table');
    expect(within(earnings).getAllByText('$5.00').length).toBeGreaterThan(0);
    expect(within(earnings).getAllByText('$0.50').length).toBeGreaterThan(0);
    expect(within(earnings).getAllByText('$4.50').length).toBeGreaterThan(0);
  });

  it('renders no earnings section when the server has none (404)', async () => {
    const { mock } = await openPayment();
    await waitFor(() => expect(mock.calls.some((c) => c.url === '/api/payments/earnings')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Earnings' })).not.toBeInTheDocument());
  });
});

describe('payout country', () => {
  it('comes from the browser locale, else CA', () => {
    expect(countryFromLocale(['en-GB', 'en'])).toBe('GB');
    expect(countryFromLocale(['fr', 'de-AT'])).toBe('AT');
    expect(countryFromLocale(['en'])).toBe('CA');
    expect(countryFromLocale(['xx-ZZ'])).toBe('CA');
    expect(countryFromLocale([])).toBe('CA');
  });
});
