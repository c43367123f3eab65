import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAdmin, renderAppAt } from '../../test/render-app';
import { VERIFY_INCOMPLETE } from './VerifyEmailPage';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  localStorage.clear();
});

describe('/verify-email (the link mailed by identity)', () => {
  it('confirms the token from the link once and says so in clear words', async () => {
    const mock = mockFetch({ 'POST /api/users/verify-email': () => json({ message: 'Your email address is verified.' }) });
    restore = mock.restore;
    renderAppAt('/verify-email?token=tok-123');
    expect(await screen.findByText(/Your email address is verified\./)).toBeInTheDocument();
    const posts = mock.calls.filter((c) => c.url.endsWith('/api/users/verify-email'));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ token: 'tok-123' });
    // Issue 28: the next step is the set-up page (through the login when signed out).
    expect(screen.getByRole('link', { name: 'Log in to set up your page' })).toHaveAttribute('href', '/login?next=%2Fadmin%2Fsetup');
  });

  it('signed in, continues the set-up path (issue 28): the next step is the set-up page', async () => {
    const { mock } = renderAdmin('/verify-email?token=tok-456', {
      'POST /api/users/verify-email': () => json({ message: 'Your email address is verified.' }),
    });
    restore = mock.restore;
    expect(await screen.findByRole('link', { name: 'Continue setting up your page' })).toHaveAttribute('href', '/admin/setup');
    expect(screen.queryByRole('link', { name: 'Go to Account Settings' })).not.toBeInTheDocument();
  });

  it("shows identity's message when the link is expired or used", async () => {
    const message = 'This verification link is invalid, expired or already used. Sign in and send a new one from Account Settings.';
    const mock = mockFetch({ 'POST /api/users/verify-email': () => json({ message, code: 'BAD_REQUEST' }, { status: 400 }) });
    restore = mock.restore;
    renderAppAt('/verify-email?token=spent-token');
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('explains an incomplete link without calling the server', async () => {
    const mock = mockFetch({});
    restore = mock.restore;
    renderAppAt('/verify-email');
    expect(await screen.findByText(VERIFY_INCOMPLETE)).toBeInTheDocument();
    expect(mock.calls.filter((c) => c.url.includes('verify-email'))).toHaveLength(0);
  });
});
