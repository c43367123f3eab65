import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { leaveTo } from '../../lib/browser';
import { json } from '../../test/fetch-mock';
import { inPage, renderAdmin, toasts } from '../../test/render-app';
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
  it('issue 28: the tip switch is disabled, with the reason and a link to connect payouts, until payouts complete', async () => {
    await openPayment();
    const tipping = screen.getByRole('switch', { name: 'Enabling Tipping' });
    expect(tipping).toBeDisabled();
    expect(tipping).toHaveAccessibleDescription('Please set up your Stripe Connect account first. Connect payouts');
    expect(screen.getByRole('link', { name: 'Connect payouts' })).toHaveAttribute('href', '#payouts');
    // Payouts come first on the page.
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.slice(0, 2)).toEqual(['Connect payouts', 'Tipping']);
  });

  it('keeps the switch disabled while the payout account is not complete', async () => {
    await openPayment({ 'GET /api/payments/account-status': () => json({ ...pending, country: 'GB' }) });
    const tipping = screen.getByRole('switch', { name: 'Enabling Tipping' });
    expect(tipping).toBeDisabled();
    expect(tipping).toHaveAccessibleDescription(
      'Please complete your Stripe Connect account before enabling tipping. Connect payouts',
    );
    expect(screen.getByRole('button', { name: 'Finish setting up payouts' })).toBeInTheDocument();
  });

  it('with payouts complete, the switch saves at once in one call (no Save), and says so in a toast', async () => {
    const { mock, user } = await openPayment({
      'GET /api/payments/account-status': () => json({ ...completed, country: 'GB' }),
      'PUT /api/payments/tipOptions': (call) =>
        json({ tipOptions: DEFAULTS, tippingEnabled: (call.body as { tippingEnabled: boolean }).tippingEnabled, message: 'Payment options saved successfully!' }),
    });
    expect(screen.getByText('Your payout account in United Kingdom is ready to receive tips.')).toBeInTheDocument();
    const tipping = screen.getByRole('switch', { name: 'Enabling Tipping' });
    expect(tipping).toBeEnabled();
    await user.click(tipping);
    expect(await toasts().findByText('Tipping turned on')).toBeInTheDocument();
    expect(inPage().queryByText(/tipping is on|turned on/i)).not.toBeInTheDocument();
    expect(tipping).toBeChecked();
    const puts = mock.calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.body)).toEqual([{ userId: 'u1', tippingEnabled: true }]);
    await user.click(tipping);
    expect(await toasts().findByText('Tipping turned off')).toBeInTheDocument();
  });

  it('puts the switch back and says why when its save fails', async () => {
    const { user } = await openPayment({
      'GET /api/payments/account-status': () => json({ ...completed, country: 'GB' }),
      'PUT /api/payments/tipOptions': () => json({ message: 'Please complete your Stripe Connect account before enabling tipping.' }, { status: 422 }),
    });
    const tipping = screen.getByRole('switch', { name: 'Enabling Tipping' });
    await user.click(tipping);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please complete your Stripe Connect account before enabling tipping.');
    expect(tipping).not.toBeChecked();
  });

  it('saves the tip amounts with their own Save, said in a toast', async () => {
    const { mock, user } = await openPayment({
      'GET /api/payments/account-status': () => json({ ...completed, country: 'GB' }),
      'PUT /api/payments/tipOptions': (call) => json({ ...(call.body as object), message: 'Payment options saved successfully!' }),
    });
    await user.click(screen.getByRole('button', { name: 'Remove Tip amount Option 4' }));
    await user.click(screen.getByRole('button', { name: 'Save tip amounts' }));
    expect(await toasts().findByText('Payment options saved successfully!')).toBeInTheDocument();
    expect(inPage().queryByText('Payment options saved successfully!')).not.toBeInTheDocument();
    const body = mock.calls.find((c) => c.method === 'PUT')?.body as { userId: string; tipOptions: { value: string }[]; tippingEnabled: boolean };
    expect(body.userId).toBe('u1');
    expect(body.tippingEnabled).toBe(false);
    expect(body.tipOptions.map((o) => o.value)).toEqual(['$0', '$5', '$25', 'Custom']);
  });

  it('asks before leaving with tip amounts not saved (the unsaved-changes guard)', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user } = await openPayment();
    await user.click(screen.getByRole('button', { name: 'Remove Tip amount Option 4' }));
    await user.click(screen.getByRole('link', { name: 'Account Settings' }));
    expect(confirm).toHaveBeenCalledWith('You have unsaved changes. Leave anyway?');
    // Refused: still here, the change kept.
    expect(screen.getByRole('heading', { level: 1, name: 'Payment' })).toBeInTheDocument();
    expect(selectors()).toHaveLength(4);
    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('link', { name: 'Account Settings' }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: 'Payment' })).not.toBeInTheDocument());
    confirm.mockRestore();
  });

  it('shows the save failure', async () => {
    const { user } = await openPayment({ 'PUT /api/payments/tipOptions': () => json({ message: 'down' }, { status: 500 }) });
    await user.click(screen.getByRole('button', { name: 'Save tip amounts' }));
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

  it('connects payouts for a country chosen and confirmed, prefilled from the browser’s locale', async () => {
    const { mock, user } = await openPayment({
      'POST /api/payments/connect': () => json({ url: 'https://connect.example/onboarding/acct_9', stripeAccountId: 'acct_9' }),
    });
    // jsdom's locale is en-US.
    expect(screen.getByLabelText('Payout country')).toHaveValue('US');
    await user.selectOptions(screen.getByLabelText('Payout country'), 'GB');
    await user.click(screen.getByRole('button', { name: 'Connect payouts' }));
    // Not yet: the country cannot be changed later, so it is confirmed first.
    expect(mock.calls.some((c) => c.method === 'POST')).toBe(false);
    expect(screen.getByText(/The country cannot be changed later\./)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Change country' }));
    await user.click(screen.getByRole('button', { name: 'Connect payouts' }));
    await user.click(screen.getByRole('button', { name: 'Confirm United Kingdom and continue' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://connect.example/onboarding/acct_9'));
    expect(mock.calls.find((c) => c.method === 'POST')?.body).toEqual({ userId: 'u1', country: 'GB' });
  });

  it('never assumes a country the locale does not give: the owner must choose (its error under the field, issue 28)', async () => {
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en']);
    const { mock, user } = await openPayment();
    const country = screen.getByLabelText('Payout country');
    expect(country).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Connect payouts' }));
    expect(country).toHaveAttribute('aria-invalid', 'true');
    expect(country).toHaveAccessibleDescription(
      'Where you or your business are based. It cannot be changed later. Please choose the country of your payout account. It cannot be changed later.',
    );
    // The form's one shape: focus on the field, the count over the button.
    expect(country).toHaveFocus();
    expect(screen.getByText('Please correct the highlighted field.')).toBeInTheDocument();
    expect(mock.calls.some((c) => c.method === 'POST')).toBe(false);
    // Gone as soon as a country is chosen.
    await user.selectOptions(country, 'FR');
    expect(country).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Please correct the highlighted field.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Connect payouts' }));
    expect(screen.getByRole('button', { name: 'Confirm France and continue' })).toBeInTheDocument();
    languages.mockRestore();
  });

  it('says when connecting fails', async () => {
    const { user } = await openPayment({ 'POST /api/payments/connect': () => json({ message: 'x' }, { status: 503 }) });
    await user.click(screen.getByRole('button', { name: 'Connect payouts' }));
    await user.click(screen.getByRole('button', { name: 'Confirm United States and continue' }));
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
  it('comes from the browser locale, else none (the owner chooses; issue 28)', () => {
    expect(countryFromLocale(['en-GB', 'en'])).toBe('GB');
    expect(countryFromLocale(['fr', 'de-AT'])).toBe('AT');
    expect(countryFromLocale(['en'])).toBe('');
    expect(countryFromLocale(['xx-ZZ'])).toBe('');
    expect(countryFromLocale([])).toBe('');
  });
});
