import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASKING_MESSAGES, type AskerBlock, type AskingSettings } from '@ques/contracts/core';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAppAt, toasts } from '../../test/render-app';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));

const me = { _id: 'u1', id: 'u1', username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com', bio: '' };
const settings: AskingSettings = {
  pausedUntil: null,
  pauseNote: '',
  pendingCap: null,
  blockedWords: ['badword'],
  builtInFilter: false,
  nudges: true,
};
const block: AskerBlock = {
  id: 'b1',
  label: 'Grace Guest',
  byAccount: false,
  byEmail: true,
  byDevice: true,
  createdAt: '2026-11-20T10:00:00.000Z',
};

let restore: (() => void) | undefined;
afterEach(() => restore?.());

async function open(routes: Parameters<typeof mockFetch>[0] = {}) {
  localStorage.setItem('accessToken', 'A1');
  const mock = mockFetch({
    'GET /api/users/profile': () => json(me),
    'GET /api/asking/settings': () => json(settings),
    'GET /api/asking/blocks': () => json([block]),
    ...routes,
  });
  restore = mock.restore;
  renderAppAt('/admin/account-settings/asking');
  const section = await screen.findByRole('form', { name: 'Asking' });
  await waitFor(() => expect(within(section).getByLabelText(/Blocked words and phrases/)).toHaveValue('badword'));
  return { mock, section, user: userEvent.setup() };
}

describe('Account Settings: asking (issue 16)', () => {
  it('pauses until a date with a note, caps open questions, edits the filter and turns nudges off', async () => {
    const { mock, section, user } = await open({
      'PUT /api/asking/settings': (call) => json({ ...settings, ...(call.body as object) }),
    });
    await user.click(within(section).getByLabelText(/Pause my page/));
    await user.type(within(section).getByLabelText('Not taking questions until'), '2030-05-04');
    await user.type(within(section).getByLabelText(/Note on your page/), 'Back after the book launch.');
    await user.type(within(section).getByLabelText(/Most open questions at once/), '20');
    await user.type(within(section).getByLabelText(/Blocked words and phrases/), '\nother phrase');
    await user.click(within(section).getByLabelText(/Also block Ques’ short built-in list/));
    await user.click(within(section).getByLabelText(/E-mail me reminders/));
    await user.click(within(section).getByRole('button', { name: 'Save asking settings' }));
    // Issue 28: in a toast, not in the card.
    expect(await toasts().findByText('Asking settings saved.')).toBeInTheDocument();
    expect(within(section).queryByText('Asking settings saved.')).not.toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'PUT' && c.url.includes('/api/asking/settings'))?.body).toEqual({
      pausedUntil: '2030-05-04T00:00:00.000Z',
      pauseNote: 'Back after the book launch.',
      pendingCap: 20,
      blockedWords: ['badword', 'other phrase'],
      builtInFilter: true,
      nudges: false,
    });
    // Much typing: seconds on a loaded machine.
  }, 15_000);

  it("shows the server's message when the list is too long", async () => {
    const { section, user } = await open({
      'PUT /api/asking/settings': () =>
        json({ message: 'You can block at most 500 words or phrases.', code: 'BAD_REQUEST' }, { status: 400 }),
    });
    await user.click(within(section).getByRole('button', { name: 'Save asking settings' }));
    expect(await within(section).findByText('You can block at most 500 words or phrases.')).toBeInTheDocument();
  });

  it('issue 28: shows every field’s error at once under it, each gone as soon as it is valid, and sends nothing meanwhile', async () => {
    const { mock, section, user } = await open({
      'PUT /api/asking/settings': (call) => json({ ...settings, ...(call.body as object) }),
    });
    const field = (label: RegExp) => within(section).getByLabelText(label);
    await user.click(field(/Pause my page/));
    await user.type(field(/Most open questions at once/), '0');
    await user.type(field(/Blocked words and phrases/), `\n${'x'.repeat(101)}`);
    await user.click(within(section).getByRole('button', { name: 'Save asking settings' }));

    expect(field(/Not taking questions until/)).toHaveAccessibleDescription('Choose the date you take questions again.');
    expect(field(/Most open questions at once/)).toHaveAccessibleDescription(expect.stringContaining(ASKING_MESSAGES.capInvalid));
    expect(field(/Blocked words and phrases/)).toHaveAccessibleDescription(expect.stringContaining(ASKING_MESSAGES.filterTooLong));
    expect(within(section).getByText('Please correct the 3 highlighted fields.')).toBeInTheDocument();
    expect(field(/Not taking questions until/)).toHaveFocus();
    // Only the three under their fields: no form-level banner.
    expect(within(section).getAllByRole('alert')).toHaveLength(3);

    await user.type(field(/Not taking questions until/), '2030-05-04');
    expect(field(/Not taking questions until/)).not.toHaveAttribute('aria-invalid');
    expect(field(/Most open questions at once/)).toHaveAttribute('aria-invalid', 'true');
    await user.clear(field(/Most open questions at once/));
    await user.type(field(/Most open questions at once/), '20');
    expect(field(/Most open questions at once/)).not.toHaveAttribute('aria-invalid');
    expect(within(section).getByText('Please correct the highlighted field.')).toBeInTheDocument();
    await user.clear(field(/Blocked words and phrases/));
    await user.type(field(/Blocked words and phrases/), 'badword');
    expect(field(/Blocked words and phrases/)).not.toHaveAttribute('aria-invalid');
    expect(within(section).queryByText(/Please correct/)).not.toBeInTheDocument();
    expect(mock.calls.filter((c) => c.method === 'PUT')).toEqual([]);

    await user.click(within(section).getByRole('button', { name: 'Save asking settings' }));
    await waitFor(() => expect(mock.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ pendingCap: 20, blockedWords: ['badword'] }));
  }, 15_000);

  it('lists blocked askers and lifts a block', async () => {
    const { mock, section, user } = await open({ 'DELETE /api/asking/blocks/b1': () => json({ message: 'Block lifted' }) });
    const list = within(section).getByRole('list', { name: 'Blocked askers' });
    expect(within(list).getByText('Grace Guest')).toBeInTheDocument();
    expect(within(list).getByText(/by e-mail, browser/)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Lift block on Grace Guest' }));
    expect(await toasts().findByText('The block on Grace Guest was lifted.')).toBeInTheDocument();
    expect(within(section).queryByText('The block on Grace Guest was lifted.')).not.toBeInTheDocument();
    expect(within(section).queryByRole('list', { name: 'Blocked askers' })).not.toBeInTheDocument();
    expect(mock.calls.some((c) => c.method === 'DELETE' && c.url === '/api/asking/blocks/b1')).toBe(true);
  });

  it('says exactly what a block and the guest limit can and cannot stop (issue 33)', async () => {
    const { section } = await open({});
    const scope = within(section).getByTestId('blocks-scope');
    expect(scope).toHaveTextContent('also with a +tag, in any case, and for Gmail with or without dots');
    expect(scope).toHaveTextContent('It cannot stop someone who signs up again, uses a different address or a different browser.');
    expect(scope).toHaveTextContent('at most 5 questions a day from one browser, one e-mail address or one network');
  });
});
