import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionStatusPage } from '@ques/contracts/core';
import { MemoryRouter, Route, Routes } from '../../lib/router';
import { json, mockFetch } from '../../test/fetch-mock';
import StatusPage from './StatusPage';

const TOKEN = 'a'.repeat(43);
const inFiveDays = new Date(Date.now() + 5 * 86_400_000 - 60_000).toISOString();
const held: QuestionStatusPage = {
  questionId: 'q1',
  question: 'Which loom?',
  detail: 'Jacquard or not',
  publicQuestion: null,
  publicDetail: null,
  toName: 'Ada Lovelace',
  toUsername: 'ada',
  status: 'Pending',
  askedAt: new Date().toISOString(),
  answer: null,
  answeredAt: null,
  isPublic: false,
  isPrivate: false,
  tip: { amountCents: 500, currency: 'usd', state: 'held', releaseAt: inFiveDays, chargedAt: null },
  emailConfirmed: true,
};

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function open(routes: Parameters<typeof mockFetch>[0]) {
  const mock = mockFetch(routes);
  restore = mock.restore;
  render(
    <MemoryRouter initialEntries={[`/q/${TOKEN}`]}>
      <Routes>
        <Route path="q/:token" element={<StatusPage />} />
      </Routes>
    </MemoryRouter>,
  );
  return mock;
}

describe('the private status page (issue 14)', () => {
  it('shows the hold, the countdown to its release and the date; Withdraw asks first, then shows it released', async () => {
    const mock = open({
      [`POST /api/question-status/${TOKEN}/confirm`]: () => json(held),
      [`POST /api/question-status/${TOKEN}/withdraw`]: () =>
        json({ ...held, status: 'Withdrawn', tip: { ...held.tip!, state: 'released' } }),
    });
    await screen.findByText('Which loom?');
    expect(screen.getByText('Jacquard or not')).toBeInTheDocument();
    expect(screen.getByTestId('tip').textContent).toContain(
      'Your card is held for $5.00 — you are not charged unless Ada Lovelace answers.',
    );
    expect(screen.getByTestId('countdown').textContent).toMatch(/^Released automatically in 4 d 23 h, on .+ UTC\.$/);
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(mock.calls.some((c) => c.url.endsWith('/withdraw'))).toBe(false); // a confirm step first
    await user.click(screen.getByRole('button', { name: 'Yes, withdraw' }));
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('Withdrawn'));
    expect(screen.getByTestId('tip').textContent).toBe('Released — never charged.');
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
  });

  it('shows the answer (even when not public) and the charge', async () => {
    open({
      [`POST /api/question-status/${TOKEN}/confirm`]: () =>
        json({
          ...held,
          status: 'Answered',
          answer: 'The Jacquard one.',
          answeredAt: '2026-01-02T10:00:00.000Z',
          isPrivate: true,
          publicQuestion: 'Which loom, in general?',
          publicDetail: '',
          tip: { ...held.tip!, state: 'charged', chargedAt: '2026-01-02T10:00:00.000Z' },
        }),
    });
    await screen.findByText('The Jacquard one.');
    // Both wordings: the original and the redacted public one.
    expect(screen.getByText('Which loom?')).toBeInTheDocument();
    expect(screen.getByTestId('redacted').textContent).toContain('Which loom, in general?');
    expect(screen.getByText('Only you can see this answer.')).toBeInTheDocument();
    expect(screen.getByText('Private — only you see the answer')).toBeInTheDocument();
    expect(screen.getByTestId('tip').textContent).toBe('Charged $5.00 on January 2, 2026 at 10:00 AM UTC.');
  });

  it('says the page does not exist for an unknown token', async () => {
    open({
      [`POST /api/question-status/${TOKEN}/confirm`]: () =>
        json({ message: 'This status page does not exist. Check the link in your e-mail.' }, { status: 404 }),
    });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('This status page does not exist. Check the link in your e-mail.')).toBeInTheDocument();
  });

  it('shows a second withdrawal’s message and keeps the page', async () => {
    open({
      [`POST /api/question-status/${TOKEN}/confirm`]: () => json(held),
      [`POST /api/question-status/${TOKEN}/withdraw`]: () =>
        json({ message: 'This question was already withdrawn.' }, { status: 409 }),
    });
    await screen.findByText('Which loom?');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    await user.click(screen.getByRole('button', { name: 'Yes, withdraw' }));
    expect(await screen.findByText('This question was already withdrawn.')).toBeInTheDocument();
    expect(screen.getByText('Which loom?')).toBeInTheDocument();
  });
});
