import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAIM_MESSAGES, type ProfileClaim, type PublicProfile } from '@ques/contracts/core';
import { json, mockFetch } from '../../test/fetch-mock';
import { me, renderAppAt } from '../../test/render-app';

const marie: PublicProfile = {
  _id: 'p1',
  id: 'p1',
  username: 'marie-curie',
  name: 'Marie Curie',
  bio: 'Physicist',
  avatarUrl: '/images/user-image.png',
  brandColorMain: '#1A140F',
  brandColorLight: '#FAF6F2',
  archiveProfile: true,
};
const rejected: ProfileClaim = {
  id: 'c1',
  profile: { id: 'p1', username: 'marie-curie', name: 'Marie Curie' },
  method: 'note',
  evidence: '',
  note: 'It is me.',
  status: 'rejected',
  reason: 'Please send a link from your lab page.',
  createdAt: '2026-11-23T00:00:00.000Z',
  decidedAt: '2026-11-23T01:00:00.000Z',
};

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  localStorage.clear();
});

describe('the claim page (issue 18)', () => {
  it('sends a guest to sign up or log in and back to the claim', async () => {
    const mock = mockFetch({ 'GET /api/users/public/marie-curie': () => json(marie) });
    restore = mock.restore;
    renderAppAt('/ask/marie-curie/claim');
    expect(
      await screen.findByRole('heading', { name: 'Is this you? Claim Marie Curie’s page', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up to claim' })).toHaveAttribute(
      'href',
      '/signup?next=%2Fask%2Fmarie-curie%2Fclaim',
    );
    expect(screen.getByRole('link', { name: 'Log in to claim' })).toHaveAttribute(
      'href',
      '/login?next=%2Fask%2Fmarie-curie%2Fclaim',
    );
    expect(mock.calls.some((c) => c.url.includes('/api/claims'))).toBe(false);
  });

  it('shows a signed-in claimant why their claim was rejected, and sends a new one', async () => {
    localStorage.setItem('accessToken', 'A1');
    const sent: ProfileClaim = {
      ...rejected,
      id: 'c2',
      status: 'pending',
      reason: null,
      decidedAt: null,
      method: 'link',
      evidence: 'https://lab.example/curie',
    };
    let claims = [rejected];
    const mock = mockFetch({
      'GET /api/users/profile': () => json(me),
      'GET /api/users/public/marie-curie': () => json(marie),
      'GET /api/claims/mine': () => json({ claims }),
      'POST /api/claims': () => {
        claims = [sent, rejected];
        return json(sent, { status: 201 });
      },
    });
    restore = mock.restore;
    renderAppAt('/ask/marie-curie/claim');
    expect(await screen.findByText('Please send a link from your lab page.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'A link from my official site' }));
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    expect(await screen.findByText(CLAIM_MESSAGES.linkRequired)).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Link from your official site/), 'https://lab.example/curie');
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    expect(
      await screen.findByRole('heading', { name: 'Your claim is waiting for review' }),
    ).toBeInTheDocument();
    const post = mock.calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/claims'));
    expect(post?.body).toEqual({
      username: 'marie-curie',
      method: 'link',
      evidence: 'https://lab.example/curie',
      note: '',
    });
    expect(post?.headers['Idempotency-Key']).toBeTruthy();
  });
});
