import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock';
import { inPage, renderAppAt, toasts } from '../../test/render-app';
import { DELETE_CONFIRM_TEXT } from './AccountSettingsPage';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));

const me = {
  _id: 'u1',
  id: 'u1',
  username: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  bio: 'Engines.',
  avatarUrl: '/images/user-image.png',
  brandColorMain: '#2F4A3A',
  brandColorLight: '#F4F1EA',
};

let restore: (() => void) | undefined;
afterEach(() => restore?.());

async function openSettings(routes: Parameters<typeof mockFetch>[0] = {}) {
  localStorage.setItem('accessToken', 'A1');
  const mock = mockFetch({ 'GET /api/users/profile': () => json(me), ...routes });
  restore = mock.restore;
  renderAppAt('/admin/account-settings');
  await screen.findByRole('heading', { name: 'Account Settings' });
  await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Ada Lovelace'));
  return { mock, user: userEvent.setup() };
}

const file = (bytes: number, type = 'image/png') => new File([new Uint8Array(bytes)], 'a.png', { type });

describe('account settings (spec §2, §8)', () => {
  it('shows the profile link and the form filled in', async () => {
    await openSettings();
    expect(screen.getByLabelText('Email Address')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Bio')).toHaveValue('Engines.');
    expect(screen.getByLabelText('Profile Link')).toHaveValue(`${window.location.origin}/ask/ada`);
    expect(screen.getByLabelText('Profile Link')).toHaveAttribute('readonly');
  });

  it('saves the profile and says so in a toast (issue 28), not in the page', async () => {
    const { mock, user } = await openSettings({
      'PUT /api/users/profile': (call) => json({ ...me, ...(call.body as object) }),
    });
    await user.clear(screen.getByLabelText('Bio'));
    await user.type(screen.getByLabelText('Bio'), 'New bio');
    await user.click(screen.getByRole('button', { name: 'Save Account Settings' }));
    expect(await toasts().findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(inPage().queryByText('Profile updated successfully!')).not.toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ bio: 'New bio', name: 'Ada Lovelace' });
  });

  it('resets the colours to the defaults', async () => {
    const { user } = await openSettings();
    await user.click(screen.getByRole('button', { name: 'Reset Colors to Default' }));
    expect(screen.getByLabelText('Main colour')).toHaveValue('#1a140f');
    expect(screen.getByLabelText('Light colour')).toHaveValue('#faf6f2');
  });

  it('asks for the current and a new password before changing it', async () => {
    const { mock, user } = await openSettings({ 'PUT /api/users/profile': () => json(me) });
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Please enter your current password.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Current Password'), 'my old password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Please enter a new password.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New Password'), 'another long one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await toasts().findByText('Your password has been successfully updated.')).toBeInTheDocument();
    expect(inPage().queryByText('Your password has been successfully updated.')).not.toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'PUT')?.body).toEqual({ newPassword: 'another long one', currentPassword: 'my old password' });
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
  });

  it("shows identity's message under the password when the current one is wrong", async () => {
    const { user } = await openSettings({
      'PUT /api/users/profile': () => json({ message: 'Your current password is incorrect.', code: 'BAD_REQUEST' }, { status: 400 }),
    });
    await user.type(screen.getByLabelText('Current Password'), 'not it');
    await user.type(screen.getByLabelText('New Password'), 'another long one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your current password is incorrect.')).toBeInTheDocument();
  });

  it('asks for the current password only when the e-mail changes, and says a link was sent to the new address', async () => {
    const { mock, user } = await openSettings({
      'PUT /api/users/profile': (call) => json({ ...me, ...(call.body as object), currentPassword: undefined, emailVerified: false }),
    });
    expect(screen.queryByLabelText('Current Password (to change your email)')).toBeNull();
    await user.clear(screen.getByLabelText('Email Address'));
    await user.type(screen.getByLabelText('Email Address'), 'ada.new@example.com');
    expect(screen.getByLabelText('Current Password (to change your email)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Account Settings' }));
    expect(screen.getByText('Please enter your current password to change your email address.')).toBeInTheDocument();
    expect(mock.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    await user.type(screen.getByLabelText('Current Password (to change your email)'), 'my password');
    await user.click(screen.getByRole('button', { name: 'Save Account Settings' }));
    expect(await toasts().findByText(/We sent a link to ada\.new@example\.com/)).toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ email: 'ada.new@example.com', currentPassword: 'my password' });
    // The new address is unverified: the notice shows.
    expect(screen.getByRole('region', { name: 'Verify your email' })).toHaveTextContent('ada.new@example.com');
  });

  it('tells an unverified account to verify its e-mail and resends the link', async () => {
    const { mock, user } = await openSettings({
      'GET /api/users/profile': () => json({ ...me, emailVerified: false }),
      'POST /api/users/verify-email/resend': () => json({ message: 'Verification email sent. Please check your inbox.' }),
    });
    const notice = await screen.findByRole('region', { name: 'Verify your email' });
    expect(notice).toHaveTextContent('We sent a link to ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Verification email sent. Please check your inbox.')).toBeInTheDocument();
    expect(mock.calls.filter((c) => c.url.endsWith('/api/users/verify-email/resend'))).toHaveLength(1);
  });

  it('shows no verification notice for a verified account', async () => {
    await openSettings({ 'GET /api/users/profile': () => json({ ...me, emailVerified: true }) });
    expect(screen.queryByRole('region', { name: 'Verify your email' })).toBeNull();
  });

  it('refuses an avatar of 2 MB or more before sending it', async () => {
    const { mock, user } = await openSettings();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, file(2_097_152));
    expect(
      screen.getByText('Sorry, your avatar must be smaller than 2 MB. Please choose a smaller image.'),
    ).toBeInTheDocument();
    expect(mock.calls.some((c) => c.url === '/api/users/avatar')).toBe(false);
  });

  it('says a saved photo in a toast (issue 28), an upload failure under the button', async () => {
    const { user } = await openSettings({ 'POST /api/users/avatar': () => json({ ...me, avatarUrl: '/uploads/new.png' }) });
    await user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file(1000));
    expect(await toasts().findByText('Photo saved')).toBeInTheDocument();
    expect(inPage().queryByText('Photo saved')).not.toBeInTheDocument();
  });

  it('says a copied profile link in a toast (issue 28)', async () => {
    const { user } = await openSettings();
    await user.click(screen.getByRole('button', { name: 'Copy Link' }));
    expect(await toasts().findByText('Profile link copied to clipboard!')).toBeInTheDocument();
    expect(inPage().queryByText('Profile link copied to clipboard!')).not.toBeInTheDocument();
  });

  it('explains a 413 from the server', async () => {
    const { user } = await openSettings({ 'POST /api/users/avatar': () => json({}, { status: 413 }) });
    await user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file(1000));
    expect(await screen.findByText('Image too large. Please pick one under 2 MB.')).toBeInTheDocument();
  });

  it('explains other upload failures', async () => {
    const { user } = await openSettings({ 'POST /api/users/avatar': () => json({}, { status: 500 }) });
    await user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file(1000));
    expect(await screen.findByText('Failed to upload avatar. Try again or use a smaller image.')).toBeInTheDocument();
  });

  it('confirms before deleting the account', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { mock, user } = await openSettings();
    // Issue 28: on the "Data & account" tab.
    await user.click(screen.getByRole('link', { name: 'Data & account' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    expect(confirm).toHaveBeenCalledWith(DELETE_CONFIRM_TEXT);
    expect(DELETE_CONFIRM_TEXT).toBe('Are you sure you want to delete your account? This action cannot be undone.');
    expect(mock.calls.some((c) => c.method === 'DELETE')).toBe(false);
  });
});
