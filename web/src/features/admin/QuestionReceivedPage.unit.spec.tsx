import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fetch-mock';
import { errorOf } from '../../test/field-error';
import { bodyRows, DAY, deferred, narrowViewport, question, renderAdmin, rowOf } from '../../test/render-app';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));

const HOUR = 60 * 60 * 1000;
// Created "now": the deadline is 2 days 3½ hours away.
const held = question({
  _id: 'q1',
  question: 'How do you price consulting?',
  fromUsername: 'grace',
  askedName: 'Grace Hopper',
  createdAt: '2025-03-14T10:00:00.000Z',
  tip: 5,
  tipAmount: 500,
  tipStatus: 'held',
  answerDeadline: new Date(Date.now() + 2 * DAY + 3.5 * HOUR).toISOString(),
});
const captured = question({
  _id: 'q2',
  question: 'Favourite engine?',
  askedName: 'Charles Babbage',
  createdAt: '2025-02-01T10:00:00.000Z',
  status: 'Answered',
  answer: 'The analytical one.',
  tip: 25,
  tipStatus: 'captured',
});
const free = question({
  _id: 'q3',
  question: 'What is a loop?',
  fromUsername: 'alan',
  askedName: 'Alan Turing',
  createdAt: '2025-01-20T10:00:00.000Z',
  status: 'Answered',
  answer: 'A repeat.',
  displayOnProfile: false,
});
const released = question({
  _id: 'q4',
  question: 'Can you review my notes?',
  askedName: 'Mary Somerville',
  createdAt: '2025-01-10T10:00:00.000Z',
  tip: 10,
  tipStatus: 'released',
  answerWindowExpired: true,
});
const inbox = [held, captured, free, released];

let cleanups: Array<() => void> = [];
beforeEach(() => {
  // Failed calls are logged on purpose; keep the test output readable.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

async function openInbox(routes: Parameters<typeof renderAdmin>[1] = {}, items = inbox) {
  const result = renderAdmin('/admin', { 'GET /api/questions': () => json(items), ...routes });
  cleanups.push(result.mock.restore);
  await screen.findByRole('heading', { name: 'Question Received' });
  if (items.length) await screen.findByRole('table');
  return result;
}

const questionsShown = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0]!.textContent);
const listCalls = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/questions'));

describe('Question Received (spec §2 inbox)', () => {
  it('shows the owner their trust stats with what they mean, before they are public too (issue 15)', async () => {
    const stats = {
      periodDays: 90,
      windowDays: 5,
      established: false,
      figures: { answered: 3, medianAnswerSeconds: 10_800, answeredWithinWindow: 1, publicAnswers: 2 },
    };
    await openInbox({ 'GET /api/trust-stats': () => json(stats) });
    const section = await screen.findByRole('region', { name: 'Your answer record, last 90 days' });
    expect(within(section).getByText('Median time to answer').nextSibling?.textContent).toBe('3 hours');
    expect(within(section).getByText('Answered within 5 days').nextSibling?.textContent).toBe('100%');
    expect(section.textContent).toContain('“New on Ques” until 5 questions');
    expect(section.textContent).toContain('private questions count in the rates but are never shown');
  });

  it('asks for the inbox and shows the spec columns, newest first', async () => {
    const { mock } = await openInbox();
    expect(listCalls(mock.calls)[0]?.url).toContain('role=receiver');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Question', 'Asked By', 'Date', 'Tip', 'Status', 'Display on Profile', 'Actions']);
    expect(questionsShown()).toEqual([held.question, captured.question, free.question, released.question]);
  });

  it('shows where each tip stands: held with the time left, captured, released', async () => {
    await openInbox();
    expect(within(rowOf(held.question)).getByText('Held')).toBeInTheDocument();
    expect(within(rowOf(held.question)).getByText('Releases in 2d 3h')).toBeInTheDocument();
    expect(within(rowOf(captured.question)).getByText('$25')).toBeInTheDocument();
    expect(within(rowOf(captured.question)).getByText('Captured')).toBeInTheDocument();
    expect(within(rowOf(released.question)).getByText('Released')).toBeInTheDocument();
    expect(within(rowOf(free.question)).getByText('No tip')).toBeInTheDocument();
  });

  it('lists a question its asker withdrew as Withdrawn, with nothing to reply to, show or delete (issue 14)', async () => {
    const withdrawn = question({
      _id: 'q5',
      question: 'Never mind, withdrawn?',
      askedName: 'Ada Guest',
      createdAt: '2025-03-15T10:00:00.000Z',
      status: 'Withdrawn',
      tip: 5,
      tipStatus: 'released',
    });
    await openInbox({}, [withdrawn, held]);
    const row = rowOf('Never mind, withdrawn?');
    expect(within(row).getByText('Withdrawn', { selector: '.status-tag' })).toBeInTheDocument();
    expect(within(row).getByText('Released')).toBeInTheDocument();
    expect(within(row).queryByRole('button')).toBeNull();
    expect(within(rowOf(held.question)).getByText('Pending', { selector: '.status-tag' })).toBeInTheDocument();
    expect(screen.getByText('1 waiting for your answer.')).toBeInTheDocument();
  });

  it('on a wide screen filters by status, and counts the questions in the right number (issue 28)', async () => {
    const { user } = await openInbox();
    expect(screen.getByTestId('list-count')).toHaveTextContent('4 questions');
    const status = screen.getByRole('combobox', { name: 'Status' });
    await user.selectOptions(status, 'pending');
    expect(questionsShown()).toEqual([held.question, released.question]);
    expect(screen.getByTestId('list-count')).toHaveTextContent('Showing 2 of 4 questions');
    await user.selectOptions(status, 'answered');
    expect(questionsShown()).toEqual([captured.question, free.question]);
    await user.selectOptions(status, 'withdrawn');
    expect(screen.getByText('No withdrawn questions.')).toBeInTheDocument();
    await user.selectOptions(status, 'all');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'grace');
    expect(screen.getByTestId('list-count')).toHaveTextContent('Showing 1 of 4 questions');
  });

  it('filters by question text, date, and the asker’s name or username, ignoring case', async () => {
    const { user } = await openInbox();
    const search = screen.getByRole('searchbox', { name: 'Search' });
    await user.type(search, 'GRACE');
    expect(questionsShown()).toEqual([held.question]);
    await user.clear(search);
    await user.type(search, 'alan');
    expect(questionsShown()).toEqual([free.question]);
    await user.clear(search);
    await user.type(search, 'babbage');
    expect(questionsShown()).toEqual([captured.question]);
    await user.clear(search);
    await user.type(search, 'Jan 10, 2025');
    expect(questionsShown()).toEqual([released.question]);
    await user.clear(search);
    await user.type(search, 'PRICE');
    expect(questionsShown()).toEqual([held.question]);
    await user.clear(search);
    await user.type(search, 'nothing like this');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText('No questions match “nothing like this”.')).toBeInTheDocument();
  });

  it('on a phone shows cards and toggles between pending only and all', async () => {
    cleanups.push(narrowViewport());
    const result = renderAdmin('/admin', { 'GET /api/questions': () => json(inbox) });
    cleanups.push(result.mock.restore);
    const cards = await screen.findByRole('list', { name: 'Questions received' });
    const shownCards = () => within(cards).getAllByRole('listitem').map((li) => li.querySelector('.q-card__question')?.textContent);
    expect(shownCards()).toHaveLength(4);
    await result.user.click(screen.getByRole('button', { name: 'Show Pending Only' }));
    expect(shownCards()).toEqual([held.question, released.question]);
    await result.user.click(screen.getByRole('button', { name: 'Show All' }));
    expect(shownCards()).toHaveLength(4);
  });

  it('hides an answer from the profile at once and reloads the list when the server refuses', async () => {
    const patch = deferred();
    const { mock, user } = await openInbox({ 'PATCH /api/questions/q2': () => patch.promise });
    await user.click(within(rowOf(captured.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Hide from profile' }));
    // Optimistic: "No" before the server answered.
    expect(within(rowOf(captured.question)).getByText('No')).toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ displayOnProfile: false });
    expect(listCalls(mock.calls)).toHaveLength(1);

    patch.resolve(json({ message: 'boom' }, { status: 500 }));
    await waitFor(() => expect(listCalls(mock.calls)).toHaveLength(2));
    await waitFor(() => expect(within(rowOf(captured.question)).getByText('Yes')).toBeInTheDocument());
    expect(screen.getByRole('alert')).toHaveTextContent('The list was reloaded');
  });

  it('shows a hidden answer on the profile again without reloading when the server agrees', async () => {
    const { mock, user } = await openInbox({ 'PATCH /api/questions/q3': () => json({ ...free, displayOnProfile: true }) });
    await user.click(within(rowOf(free.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Show on profile' }));
    expect(within(rowOf(free.question)).getByText('Yes')).toBeInTheDocument();
    await waitFor(() => expect(mock.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ displayOnProfile: true }));
    expect(listCalls(mock.calls)).toHaveLength(1);
  });

  it('hiding says so in a toast whose Undo issues the reverse command and shows the answer again (issue 28)', async () => {
    const { mock, user } = await openInbox({ 'PATCH /api/questions/q2': (call) => json({ ...captured, ...(call.body as object) }) });
    await user.click(within(rowOf(captured.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Hide from profile' }));
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    expect(await within(toasts).findByText('Answer hidden from your profile.')).toBeInTheDocument();
    expect(within(rowOf(captured.question)).getByText('No')).toBeInTheDocument();

    await user.click(within(toasts).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(within(rowOf(captured.question)).getByText('Yes')).toBeInTheDocument());
    const patches = mock.calls.filter((c) => c.method === 'PATCH').map((c) => c.body);
    expect(patches).toEqual([{ displayOnProfile: false }, { displayOnProfile: true }]);
    expect(await within(toasts).findByText('Answer shown on your profile.')).toBeInTheDocument();
    // An undo is not undone in turn.
    expect(within(toasts).queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('asks "Are you sure?" before deleting, and "No" keeps the question', async () => {
    const { mock, user } = await openInbox();
    await user.click(within(rowOf(free.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('Are you sure?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(rowOf(free.question)).toBeInTheDocument();
    expect(mock.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('deletes an answered question optimistically and reloads when the delete fails', async () => {
    const { mock, user } = await openInbox({
      'PATCH /api/questions/q3': () => json({ message: 'nope' }, { status: 500 }),
    });
    await user.click(within(rowOf(free.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(mock.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ deletedByReceiver: true });
    await waitFor(() => expect(listCalls(mock.calls)).toHaveLength(2));
    expect(await screen.findByText(free.question)).toBeInTheDocument();
  });

  it('cancels the payment of a pending tipped question before deleting it', async () => {
    const { mock, user } = await openInbox({
      'POST /api/payments/process/q1/cancel-payment': () => json({ message: 'Payment cancelled', status: 'released' }),
      'PATCH /api/questions/q1': () => json({ ...held, deletedByReceiver: true }),
    });
    await user.click(within(rowOf(held.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(screen.queryByText(held.question)).not.toBeInTheDocument());
    const writes = mock.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`);
    expect(writes).toEqual(['POST /api/payments/process/q1/cancel-payment', 'PATCH /api/questions/q1']);
    expect(mock.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ deletedByReceiver: true });
    expect(await screen.findByText('Question deleted. The $5 tip was released: the asker is not charged.')).toBeInTheDocument();
  });

  it('keeps the question when cancelling its payment fails', async () => {
    const { mock, user } = await openInbox({
      'POST /api/payments/process/q1/cancel-payment': () =>
        json({ message: 'This tip was already captured and can no longer be cancelled.' }, { status: 409 }),
    });
    await user.click(within(rowOf(held.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This tip was already captured and can no longer be cancelled. The question was not deleted.',
    );
    expect(rowOf(held.question)).toBeInTheDocument();
    expect(mock.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('does not cancel a payment for a tip that was already released', async () => {
    const { mock, user } = await openInbox({ 'PATCH /api/questions/q4': () => json({}) });
    await user.click(within(rowOf(released.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(mock.calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(mock.calls.some((c) => c.url.includes('cancel-payment'))).toBe(false);
  });

  it('answers a tipped question, finalizes its payment, and keeps the answer when finalizing fails', async () => {
    const { mock, user } = await openInbox({
      'PUT /api/questions/q1/answer': (call) =>
        json({ ...held, ...(call.body as object), status: 'Answered', tipStatus: 'capturing' }),
      'POST /api/payments/process/q1/finalize-payment': () =>
        json({ message: 'The payment provider is unavailable.' }, { status: 503 }),
    });
    await user.click(within(rowOf(held.question)).getByRole('button', { name: 'Reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Answer question' });
    expect(within(dialog).getByRole('checkbox', { name: 'Show on profile' })).toBeChecked();
    await user.type(within(dialog).getByLabelText(/Your answer/), 'By the outcome.');
    await user.type(within(dialog).getByLabelText('Tags'), 'Pricing{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Post Answer' }));

    expect(await screen.findByText('The payment provider is unavailable.')).toBeInTheDocument();
    const writes = mock.calls.filter((c) => c.method !== 'GET');
    expect(writes.map((c) => `${c.method} ${c.url}`)).toEqual([
      'PUT /api/questions/q1/answer',
      'POST /api/payments/process/q1/finalize-payment',
    ]);
    expect(writes[0]?.body).toEqual({ answer: 'By the outcome.', displayOnProfile: true, replierName: 'Ada Lovelace', tags: ['pricing'] });
    // The answer stays: the row is answered and offers the answer to view.
    expect(within(rowOf(held.question)).getByText('Answered')).toBeInTheDocument();
    expect(within(rowOf(held.question)).getByRole('button', { name: 'View answer' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the tip captured after a successful finalize', async () => {
    const { user } = await openInbox({
      'PUT /api/questions/q1/answer': (call) => json({ ...held, ...(call.body as object), status: 'Answered', tipStatus: 'capturing' }),
      'POST /api/payments/process/q1/finalize-payment': () => json({ message: 'Payment captured.', status: 'captured' }),
    });
    await user.click(within(rowOf(held.question)).getByRole('button', { name: 'Reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Answer question' });
    await user.type(within(dialog).getByLabelText(/Your answer/), 'By the outcome.');
    await user.click(within(dialog).getByRole('button', { name: 'Post Answer' }));
    await waitFor(() => expect(within(rowOf(held.question)).getByText('Captured')).toBeInTheDocument());
  });

  it('toasts the owner’s share of the captured tip and refreshes the answer record without a reload (issue 28)', async () => {
    let answered = 0;
    const stats = (median: number | null) => ({
      periodDays: 90,
      windowDays: 5,
      established: false,
      figures: { answered, medianAnswerSeconds: median, answeredWithinWindow: answered ? 1 : null, publicAnswers: answered },
    });
    const { user } = await openInbox({
      'GET /api/trust-stats': () => json(stats(answered ? 3600 : null)),
      'PUT /api/questions/q1/answer': (call) => {
        answered = 1;
        return json({ ...held, ...(call.body as object), status: 'Answered', tipStatus: 'capturing' });
      },
      'POST /api/payments/process/q1/finalize-payment': () => json({ message: 'Payment captured.', status: 'captured' }),
    });
    expect(await screen.findByTestId('trust-median')).toHaveTextContent('—');
    await user.click(within(rowOf(held.question)).getByRole('button', { name: 'Reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Answer question' });
    await user.type(within(dialog).getByLabelText(/Your answer/), 'By the outcome.');
    await user.click(within(dialog).getByRole('button', { name: 'Post Answer' }));
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    // $5 tip, 10 % fee: the owner's $4.50.
    expect(await within(toasts).findByText('Answer posted — you earned $4.50')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('trust-median')).toHaveTextContent('1 hour'));
  });

  it('answer form: errors of several fields at once, each cleared as soon as its field is valid (issue 28)', async () => {
    const pending = question({ _id: 'q5', question: 'Free one?', askedName: 'Free Asker' });
    const { mock, user } = await openInbox({}, [pending]);
    await user.click(within(rowOf(pending.question)).getByRole('button', { name: 'Reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Answer question' });
    await user.click(within(dialog).getByText('Edit the public wording (remove personal details)'));
    const publicQuestion = within(dialog).getByLabelText('Public question');
    await user.clear(publicQuestion);
    await user.click(within(dialog).getByRole('button', { name: 'Post Answer' }));

    const answer = within(dialog).getByLabelText(/Your answer/);
    expect(answer).toHaveAttribute('aria-invalid', 'true');
    expect(publicQuestion).toHaveAttribute('aria-invalid', 'true');
    expect(errorOf(answer)).toBe('Answer is required');
    expect(errorOf(publicQuestion)).toBe('Public question is required');
    expect(within(dialog).getByText('Please correct the 2 highlighted fields.')).toBeInTheDocument();

    await user.type(answer, 'Y');
    expect(answer).not.toHaveAttribute('aria-invalid');
    expect(errorOf(answer)).toBeNull();
    expect(within(dialog).queryByText('Answer is required')).toBeNull();
    expect(errorOf(publicQuestion)).toBe('Public question is required');
    expect(mock.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('requires an answer and does not finalize a question without a tip', async () => {
    const pending = question({ _id: 'q5', question: 'Free one?', askedName: 'Free Asker' });
    const { mock, user } = await openInbox(
      { 'PUT /api/questions/q5/answer': (call) => json({ ...pending, ...(call.body as object), status: 'Answered' }) },
      [pending],
    );
    await user.click(within(rowOf(pending.question)).getByRole('button', { name: 'Reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Answer question' });
    await user.click(within(dialog).getByRole('button', { name: 'Post Answer' }));
    expect(errorOf(within(dialog).getByLabelText(/Your answer/))).toBe('Answer is required');
    await user.type(within(dialog).getByLabelText(/Your answer/), 'Yes.');
    await user.click(within(dialog).getByRole('button', { name: 'Post Answer' }));
    await waitFor(() => expect(within(rowOf(pending.question)).getByText('Answered')).toBeInTheDocument());
    expect(mock.calls.some((c) => c.url.includes('finalize-payment'))).toBe(false);
  });

  it('edits an answer, and Cancel restores the previous answer and tags', async () => {
    const tagged = { ...captured, tags: ['engines'] };
    const { mock, user } = await openInbox(
      { 'PUT /api/questions/q2/answer': (call) => json({ ...tagged, ...(call.body as object) }) },
      [tagged],
    );
    await user.click(within(rowOf(tagged.question)).getByRole('button', { name: 'View answer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Answer' });
    expect(within(dialog).getByText('The analytical one.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    const field = within(dialog).getByLabelText(/Your answer/);
    await user.clear(field);
    await user.type(field, 'Changed my mind.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove tag engines' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).getByText('The analytical one.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    expect(within(dialog).getByLabelText(/Your answer/)).toHaveValue('The analytical one.');
    expect(within(dialog).getByRole('button', { name: 'Remove tag engines' })).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/Your answer/), ' Truly.');
    await user.click(within(dialog).getByRole('button', { name: 'Post Answer' }));
    expect(await within(dialog).findByText('The analytical one. Truly.')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Notifications' })).getByText('Answer saved.')).toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      answer: 'The analytical one. Truly.',
      tags: ['engines'],
      skipNotify: true,
    });
  });

  it('has loading, empty and error states', async () => {
    const first = deferred();
    let calls = 0;
    const { mock, user } = renderAdmin('/admin', {
      'GET /api/questions': () => (++calls === 1 ? first.promise : json([])),
    });
    cleanups.push(mock.restore);
    expect(await screen.findByText('Loading questions...')).toBeInTheDocument();
    first.resolve(json({ message: 'down' }, { status: 500 }));
    expect(await screen.findByText('Failed to fetch questions')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No questions yet/)).toBeInTheDocument();
  });
});
