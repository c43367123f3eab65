import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../components/Toast';
import { errorOf } from '../../test/field-error';
import { AuthProvider } from '../../lib/auth/auth-context';
import { json, mockFetch } from '../../test/fetch-mock';
import { ALTCHA_FIXTURE, FIXTURE_COUNTER, FIXTURE_KEY, keySignatureOf } from './captcha.fixture';
import SupportModal, { SUPPORT_MESSAGES } from './SupportModal';

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function open(routes: Parameters<typeof mockFetch>[0]) {
  const mock = mockFetch(routes);
  restore = mock.restore;
  const onClose = vi.fn();
  render(
    <AuthProvider>
      <ToastProvider>
        <SupportModal onClose={onClose} />
      </ToastProvider>
    </AuthProvider>,
  );
  return { mock, user: userEvent.setup(), onClose };
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

  it('requires title and description, each error under its field, cleared as the field is filled (issue 28)', async () => {
    const { mock, user } = open({});
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const title = screen.getByLabelText(/^Title/);
    const description = screen.getByLabelText(/^Description/);
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(description).toHaveAttribute('aria-invalid', 'true');
    expect(errorOf(title)).toBe(SUPPORT_MESSAGES.titleRequired);
    expect(errorOf(description)).toBe(SUPPORT_MESSAGES.descriptionRequired);
    expect(screen.getByText('Please correct the 2 highlighted fields.')).toBeInTheDocument();
    await user.type(title, 'O');
    expect(title).not.toHaveAttribute('aria-invalid');
    expect(errorOf(title)).toBeNull();
    expect(screen.queryByText(SUPPORT_MESSAGES.titleRequired)).toBeNull();
    expect(errorOf(description)).toBe(SUPPORT_MESSAGES.descriptionRequired);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(mock.calls).toHaveLength(0);
    expect(screen.queryByTestId('captcha')).not.toBeInTheDocument();
  });

  it('solves the captcha on Send, sends the request with the solved token, then closes with a toast', async () => {
    const { mock, user, onClose } = open({
      'GET /api/support/captcha': () => json(ALTCHA_FIXTURE),
      'POST /api/support/send': () => json({ success: true }),
    });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByTestId('captcha')).toBeInTheDocument();
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    expect(await within(toasts).findByText(SUPPORT_MESSAGES.sent)).toBeInTheDocument();
    // Issue 28: the modal closes on success instead of staying open under its message.
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));

    expect(mock.calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/support/captcha', 'POST /api/support/send']);
    const body = mock.calls[1]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ category: 'Billing Issue', title: 'Charged twice', description: 'My card shows two holds.' });
    const payload = JSON.parse(atob(body.captchaToken as string)) as { challenge: unknown; solution: { counter: number; derivedKey: string } };
    expect(payload.challenge).toEqual(ALTCHA_FIXTURE);
    expect(payload.solution).toMatchObject({ counter: FIXTURE_COUNTER, derivedKey: FIXTURE_KEY });
    // What the support service checks: the key the challenge's signature commits to.
    await expect(keySignatureOf(payload.solution.derivedKey)).resolves.toBe(ALTCHA_FIXTURE.parameters.keySignature);
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
