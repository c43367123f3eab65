import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fetch-mock';
import { errorOf } from '../../test/field-error';
import { bodyRows, question, renderAdmin, rowOf } from '../../test/render-app';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));

const curated = question({
  _id: 'c1',
  question: 'What is your rate?',
  fromUsername: 'ada',
  status: 'Answered',
  answer: '$200 an hour.',
  isCurated: true,
  createdAt: '2025-02-02T10:00:00.000Z',
});

let restore: (() => void) | undefined;
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => restore?.());

async function openCurated(routes: Parameters<typeof renderAdmin>[1] = {}, profile = {}) {
  const result = renderAdmin('/admin/questions-curated', { 'GET /api/questions': () => json([curated]), ...routes }, profile);
  restore = result.mock.restore;
  await screen.findByRole('table');
  return result;
}

describe('Questions Curated (spec §2)', () => {
  it('shows the spec columns with Yes/No for display on profile', async () => {
    const { mock } = await openCurated();
    expect(mock.calls.find((c) => c.url.startsWith('/api/questions'))?.url).toContain('role=curated');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Question', 'Date Added', 'Display on Profile', 'Actions']);
    expect(within(bodyRows()[0]!).getByText('Yes')).toBeInTheDocument();
    // Singular for one (issue 28).
    expect(screen.getByTestId('list-count')).toHaveTextContent(/^1 question$/);
  });

  it('curates a new Q&A (no source field on a normal profile) and lists it', async () => {
    const { mock, user } = await openCurated({
      'POST /api/questions': (call) =>
        json({ ...curated, ...(call.body as object), _id: 'c2', createdAt: new Date().toISOString() }, { status: 201 }),
    });
    await user.click(screen.getByRole('button', { name: 'Curate a New Q&A' }));
    const dialog = await screen.findByRole('dialog', { name: 'Curate a New Q&A' });
    expect(within(dialog).queryByLabelText(/Source/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save Q&A' }));
    // Issue 28: both errors at once, each under its field; the title's goes as soon as it is typed.
    const title = within(dialog).getByLabelText(/Question title/);
    const answer = within(dialog).getByLabelText(/^Answer/);
    expect(errorOf(title)).toBe('Question title is required.');
    expect(errorOf(answer)).toBe('Answer is required.');
    await user.type(title, 'Do you travel?');
    expect(errorOf(title)).toBeNull();
    expect(title).not.toHaveAttribute('aria-invalid');
    expect(errorOf(answer)).toBe('Answer is required.');
    await user.type(answer, 'Twice a year.');
    await user.type(within(dialog).getByLabelText('Tags'), 'travel{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Save Q&A' }));
    expect(await screen.findByText('Do you travel?', { selector: 'td' })).toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'POST')?.body).toEqual({
      question: 'Do you travel?',
      detail: '',
      answer: 'Twice a year.',
      source: '',
      displayOnProfile: true,
      isCurated: true,
      tip: 0,
      yourName: 'Ada Lovelace',
      yourEmail: 'ada@example.com',
      toUsername: 'ada',
      fromUsername: 'ada',
      tags: ['travel'],
    });
  });

  it('offers the source field on an archive profile', async () => {
    const { mock, user } = await openCurated({ 'POST /api/questions': (call) => json({ ...curated, ...(call.body as object), _id: 'c3' }) }, { archiveProfile: true });
    await user.click(screen.getByRole('button', { name: 'Curate a New Q&A' }));
    const dialog = await screen.findByRole('dialog', { name: 'Curate a New Q&A' });
    await user.type(within(dialog).getByLabelText(/Question title/), 'On failure?');
    await user.type(within(dialog).getByLabelText(/^Answer/), 'Learn from it.');
    await user.type(within(dialog).getByLabelText(/Source/), 'Podcast, 2019');
    await user.click(within(dialog).getByRole('button', { name: 'Save Q&A' }));
    await waitFor(() => expect(mock.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ source: 'Podcast, 2019' }));
  });

  it('toggles the display setting and deletes after confirmation', async () => {
    const { mock, user } = await openCurated({ 'PATCH /api/questions/c1': () => json({}) });
    await user.click(within(rowOf(curated.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Hide from profile' }));
    expect(within(rowOf(curated.question)).getByText('No')).toBeInTheDocument();
    await user.click(within(rowOf(curated.question)).getByRole('button', { name: /More actions/ }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(screen.queryByText(curated.question)).not.toBeInTheDocument());
    expect(mock.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ displayOnProfile: false }, { deletedByReceiver: true }]);
  });
});
