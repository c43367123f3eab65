import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { HANDLE_MESSAGES as H } from '@ques/contracts/core';
import { renderAppAt, toasts } from '../../test/render-app';
import { json, mockFetch } from '../../test/fetch-mock';

/* Issue 28 in the browser: the handle at sign-up (prefilled, live check) and its rename in Account Settings. */

const me = {
  _id: 'u1',
  id: 'u1',
  username: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  emailVerified: true,
  bio: '',
  avatarUrl: '/images/user-image.png',
  brandColorMain: '#1A140F',
  brandColorLight: '#FAF6F2',
};
const free = (handle: string) => () => json({ handle, available: true });

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  localStorage.clear();
});

// Typing-heavy: seconds on a loaded machine.
describe('sign-up (issue 28)', { timeout: 20_000 }, () => {
  it('shows every field’s error at once, each gone as soon as the field is valid', async () => {
    const mock = mockFetch({ 'GET /api/handles/ada-lovelace/availability': free('ada-lovelace') });
    restore = mock.restore;
    renderAppAt('/signup');
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Sign Up' }));
    const name = screen.getByLabelText('Name');
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required');
    expect(screen.getByLabelText('Your link')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('checkbox')).toHaveAccessibleDescription('Please agree to the Terms of Use and Privacy Policy to sign up');
    expect(screen.getAllByRole('alert')).toHaveLength(5);

    // The name fills the link, which is checked live; both errors go.
    await u.type(name, 'Ada Lovelace');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Your link')).toHaveValue('ada-lovelace');
    expect(await screen.findByText(/ada-lovelace is available/)).toBeInTheDocument();
    expect(screen.getByLabelText('Your link')).not.toHaveAttribute('aria-invalid');
    await u.type(screen.getByLabelText('Email'), 'ada@example');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Please enter a valid email address');
    await u.type(screen.getByLabelText('Email'), '.com');
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    expect(screen.getAllByRole('alert')).toHaveLength(2);
    expect(mock.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says why a typed link cannot be had, under the field, and sends the chosen one', async () => {
    const mock = mockFetch({
      'GET /api/handles/ada-lovelace/availability': free('ada-lovelace'),
      'GET /api/handles/taken-one/availability': () => json({ handle: 'taken-one', available: false, reason: H.taken }),
      'GET /api/handles/ada-asks/availability': free('ada-asks'),
      'POST /api/users': () => json({ user: { ...me, username: 'ada-asks' }, token: 'A1', refreshToken: 'R1', message: 'ok' }, { status: 201 }),
    });
    restore = mock.restore;
    renderAppAt('/signup');
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText('Name'), 'Ada Lovelace');
    const link = screen.getByLabelText('Your link');
    await u.clear(link);
    await u.type(link, 'ada asks');
    expect(link).toHaveAccessibleDescription(expect.stringContaining(H.spaces));
    await u.clear(link);
    await u.type(link, 'mir\u0430');
    expect(link).toHaveAccessibleDescription(expect.stringContaining(H.lookalike));
    await u.clear(link);
    await u.type(link, 'taken-one');
    await waitFor(() => expect(link).toHaveAccessibleDescription(expect.stringContaining(H.taken)));
    await u.clear(link);
    await u.type(link, 'ada-asks');
    expect(await screen.findByText(/ada-asks is available/)).toBeInTheDocument();
    await u.type(screen.getByLabelText('Email'), 'ada@example.com');
    await u.type(screen.getByLabelText('Password'), 'a long password');
    await u.click(screen.getByRole('checkbox'));
    await u.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(mock.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ username: 'ada-asks' }));
  });
});

describe('Account Settings: your public link (issue 28)', { timeout: 20_000 }, () => {
  it('renames after a confirmation naming the old and the new link, and keeps the new token', async () => {
    localStorage.setItem('accessToken', 'A1');
    const mock = mockFetch({
      'GET /api/users/profile': () => json(me),
      'GET /api/handles/ada-new/availability': free('ada-new'),
      'PUT /api/users/handle': () => json({ message: 'ok', user: { ...me, username: 'ada-new' }, accessToken: 'A2' }),
    });
    restore = mock.restore;
    renderAppAt('/admin/account-settings/link');
    const u = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Your public link' });
    await waitFor(() => expect(within(section).getByLabelText('Current link')).toHaveValue(`${window.location.origin}/ask/ada`));
    await u.click(within(section).getByRole('button', { name: 'Change link' }));
    expect(within(section).getByLabelText('New link')).toHaveAccessibleDescription(expect.stringContaining('Please choose your new link.'));
    await u.type(within(section).getByLabelText('New link'), 'ada-new');
    expect(await within(section).findByText(/ada-new is available/)).toBeInTheDocument();
    await u.click(within(section).getByRole('button', { name: 'Change link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change your public link?' });
    expect(dialog).toHaveTextContent('/ask/ada will redirect to /ask/ada-new for 90 days');
    await u.click(within(dialog).getByRole('button', { name: 'Change to /ask/ada-new' }));
    // Issue 28: said in a toast, not in the card.
    expect(await toasts().findByText(`Your link is now ${window.location.origin}/ask/ada-new`)).toBeInTheDocument();
    expect(within(section).queryByText(/Your link is now/)).not.toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'PUT')?.body).toEqual({ username: 'ada-new' });
    expect(localStorage.getItem('accessToken')).toBe('A2');
    expect(localStorage.getItem('username')).toBe('ada-new');
  });
});
