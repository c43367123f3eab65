import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fetch-mock';
import { bodyRows, DAY, question, renderAdmin, rowOf } from '../../test/render-app';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));

const asked = (o: Parameters<typeof question>[0]) =>
  question({ fromUsername: 'ada', askedName: 'Ada Lovelace', askedEmail: 'ada@example.com', toUsername: 'grace', recipientName: 'Grace Hopper', ...o });

const tipped = asked({
  _id: 'a1',
  question: 'Will you mentor me?',
  createdAt: '2025-03-10T10:00:00.000Z',
  tip: 5,
  tipStatus: 'held',
  answerDeadline: new Date(Date.now() + 4 * DAY).toISOString(),
});
const answered = asked({
  _id: 'a2',
  question: 'Which compiler first?',
  toUsername: 'alan',
  recipientName: 'Alan Turing',
  createdAt: '2025-02-10T10:00:00.000Z',
  status: 'Answered',
  answer: 'A-0.',
});
// Asked as a guest with the same e-mail before signing up (spec §5).
const asGuest = asked({ _id: 'a3', question: 'Do you take students?', fromUsername: 'guest', createdAt: '2025-01-10T10:00:00.000Z' });
// Not the user's: dropped by the list rules even if the server sent it.
const someoneElses = asked({ _id: 'a4', question: 'Not mine', fromUsername: 'bob', askedEmail: 'bob@example.com' });

let restore: (() => void) | undefined;
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => restore?.());

async function openAsked(routes: Parameters<typeof renderAdmin>[1] = {}) {
  const result = renderAdmin('/admin/questions-asked', {
    'GET /api/questions': () => json([asGuest, tipped, someoneElses, answered]),
    ...routes,
  });
  restore = result.mock.restore;
  await screen.findByRole('table');
  return result;
}

const questionsShown = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0]!.textContent);

describe('Questions Asked (spec §2)', () => {
  it('lists the user’s own questions newest first with the spec columns', async () => {
    const { mock } = await openAsked();
    expect(mock.calls.find((c) => c.url.startsWith('/api/questions'))?.url).toContain('role=asker');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Question', 'Asked To', 'Date', 'Tip', 'Status', 'Actions']);
    expect(questionsShown()).toEqual([tipped.question, answered.question, asGuest.question]);
  });

  it('searches by the name or username of the person asked', async () => {
    const { user } = await openAsked();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'TURING');
    expect(questionsShown()).toEqual([answered.question]);
    await user.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'grace');
    expect(questionsShown()).toEqual([tipped.question, asGuest.question]);
  });

  it('shows an answer read-only', async () => {
    const { user } = await openAsked();
    await user.click(within(rowOf(answered.question)).getByRole('button', { name: 'View answer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Answer' });
    expect(within(dialog).getByText('A-0.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('withdraws a pending tipped question: cancels the payment (releasing the tip), then deletes it', async () => {
    const { mock, user } = await openAsked({
      'POST /api/payments/process/a1/cancel-payment': () => json({ status: 'released', message: 'Payment cancelled' }),
      'DELETE /api/questions/a1': () => json({ message: 'Question withdrawn' }),
    });
    await user.click(within(rowOf(tipped.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('Are you sure?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(screen.queryByText(tipped.question)).not.toBeInTheDocument());
    expect(mock.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api/payments/process/a1/cancel-payment',
      'DELETE /api/questions/a1',
    ]);
    expect(await screen.findByText('Question withdrawn. Your $5 tip was released: you are not charged.')).toBeInTheDocument();
  });

  it('tells the asker when the recipient removed a pending question', async () => {
    const removed = asked({ _id: 'a5', question: 'Still there?', deletedByReceiver: true, tip: 5, tipStatus: 'released' });
    await openAsked({ 'GET /api/questions': () => json([removed, tipped]) });
    expect(within(rowOf(removed.question)).getByText('Removed by recipient')).toBeInTheDocument();
    expect(within(rowOf(removed.question)).getByText('Never charged')).toBeInTheDocument();
    expect(within(rowOf(tipped.question)).getByText('Awaiting answer')).toBeInTheDocument();
  });

  it('keeps the question when the payment cannot be cancelled', async () => {
    const { mock, user } = await openAsked({
      'POST /api/payments/process/a1/cancel-payment': () => json({ message: 'Payment not found' }, { status: 404 }),
    });
    await user.click(within(rowOf(tipped.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Payment not found The question was not deleted.');
    expect(rowOf(tipped.question)).toBeInTheDocument();
    expect(mock.calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('withdraws a free pending question without touching payments, and reloads when it fails', async () => {
    const { mock, user } = await openAsked({ 'DELETE /api/questions/a3': () => json({ message: 'no' }, { status: 500 }) });
    await user.click(within(rowOf(asGuest.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(mock.calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/questions'))).toHaveLength(2));
    expect(await screen.findByText(asGuest.question)).toBeInTheDocument();
    expect(mock.calls.some((c) => c.url.includes('cancel-payment'))).toBe(false);
  });

  it('has an empty state', async () => {
    const result = renderAdmin('/admin/questions-asked', { 'GET /api/questions': () => json([]) });
    restore = result.mock.restore;
    expect(await screen.findByText('You have not asked anyone a question yet.')).toBeInTheDocument();
  });
});
