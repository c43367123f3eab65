import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthProvider } from '../../lib/auth/auth-context';
import { json, mockFetch } from '../../test/fetch-mock';
import { ALTCHA_FIXTURE, FIXTURE_COUNTER, FIXTURE_KEY, keySignatureOf } from './captcha.fixture';
import SupportModal, { SUPPORT_MESSAGES } from './SupportModal';

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function open(routes: Parameters<typeof mockFetch>[0]) {
  const mock = mockFetch(routes);
  restore = mock.restore;
  render(
    <AuthProvider>
      <SupportModal onClose={() => undefined} />
    </AuthProvider>,
  );
  return { mock, user: userEvent.setup() };
}

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(screen.getByLabelText('Category'), 'Billing Issue');
  await user.type(screen.getByLabelText(/^Title/), 'Charged twice');
  await user.type(screen.getByLabelText(/^Description/), 'My card shows two holds.');
}

describe('support modal (spec §2, §5, §8)', () => {
  it('offers the spec categories with Technical Issue first', () => {
    open({});
    const options = Array.from(screen.getByLabelText<HTMLSelectElement>('Category').options).map((o) => o.value);
    expect(options).toEqual(['Technical Issue', 'Billing Issue', 'Account Issue', 'Feature Request', 'Other']);
    expect(screen.getByLabelText('Category')).toHaveValue('Technical Issue');
  });

  it('requires title and description before anything is sent', async () => {
    const { mock, user } = open({});
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert')).toHaveTextContent(SUPPORT_MESSAGES.required);
    await user.type(screen.getByLabelText(/^Title/), 'Only a title');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert')).toHaveTextContent(SUPPORT_MESSAGES.required);
    expect(mock.calls).toHaveLength(0);
    expect(screen.queryByTestId('captcha')).not.toBeInTheDocument();
  });

  it('solves the captcha on Send, then sends the request with the solved token', async () => {
    const { mock, user } = open({
      'GET /api/support/captcha': () => json(ALTCHA_FIXTURE),
      'POST /api/support/send': () => json({ success: true }),
    });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByTestId('captcha')).toBeInTheDocument();
    expect(await screen.findByText(SUPPORT_MESSAGES.sent)).toBeInTheDocument();

    expect(mock.calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/support/captcha', 'POST /api/support/send']);
    const body = mock.calls[1]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ category: 'Billing Issue', title: 'Charged twice', description: 'My card shows two holds.' });
    const payload = JSON.parse(atob(body.captchaToken as string)) as { challenge: unknown; solution: { counter: number; derivedKey: string } };
    expect(payload.challenge).toEqual(ALTCHA_FIXTURE);
    expect(payload.solution).toMatchObject({ counter: FIXTURE_COUNTER, derivedKey: FIXTURE_KEY });
    // What the support service checks: the key the challenge's signature commits to.
    await expect(keySignatureOf(payload.solution.derivedKey)).resolves.toBe(ALTCHA_FIXTURE.parameters.keySignature);
    // The form is cleared for another request.
    expect(screen.getByLabelText(/^Title/)).toHaveValue('');
  });

  it('uses a fresh challenge for every request (a solved one is single use)', async () => {
    const { mock, user } = open({
      'GET /api/support/captcha': () => json(ALTCHA_FIXTURE),
      'POST /api/support/send': () => json({ message: 'Captcha verification failed.' }, { status: 403 }),
    });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(SUPPORT_MESSAGES.failed)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(mock.calls.filter((c) => c.url === '/api/support/captcha')).toHaveLength(2));
    expect(screen.getByLabelText(/^Title/)).toHaveValue('Charged twice');
  });

  it('says when the request could not be sent at all', async () => {
    const { user } = open({
      'GET /api/support/captcha': () => json(ALTCHA_FIXTURE),
      'POST /api/support/send': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(SUPPORT_MESSAGES.network)).toBeInTheDocument();
  });

  it('does not send when the captcha cannot be fetched', async () => {
    const { mock, user } = open({ 'GET /api/support/captcha': () => json({ message: 'down' }, { status: 503 }) });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(SUPPORT_MESSAGES.captchaFailed)).toBeInTheDocument();
    expect(mock.calls.some((c) => c.url === '/api/support/send')).toBe(false);
  });
});
