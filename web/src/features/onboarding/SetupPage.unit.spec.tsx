import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fetch-mock';
import { inPage, renderAdmin, toasts } from '../../test/render-app';

const open = { photo: false, bio: false, colors: false, payouts: false, tips: false, publicAnswer: false, linkShared: false };
const checklist = (steps: Partial<typeof open> = {}, extra: { done?: boolean; dismissed?: boolean } = {}) => ({
  username: 'ada',
  steps: { ...open, ...steps },
  done: false,
  dismissed: false,
  ...extra,
});

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  localStorage.clear();
});

describe('the set-up page (issue 28)', () => {
  it('lists the steps from the server, does bio in place and re-reads the checklist', async () => {
    let state = checklist({ photo: true });
    const { mock, user } = renderAdmin('/admin/setup', {
      'GET /api/users/onboarding': () => json(state),
      'PUT /api/users/profile': (call) => {
        state = checklist({ photo: true, bio: true });
        return json({ user: { ...(call.body as object), _id: 'u1', id: 'u1', username: 'ada' } });
      },
    });
    restore = mock.restore;
    expect(await screen.findByText('1 of 7 steps done')).toBeInTheDocument();
    const items = screen.getAllByRole('listitem').filter((li) => li.classList.contains('setup-step'));
    expect(items.map((li) => within(li).getByRole('heading').textContent)).toEqual([
      'Add a photo (done)',
      'Write a short bio (to do)',
      'Pick your brand colours (to do)',
      'Connect payouts (to do)',
      'Turn tips on (to do)',
      'Publish your first Q&A (to do)',
      'Share your link (to do)',
    ]);
    // One click away: payouts on the payment page; tips wait for payouts; a Q&A on the curated page.
    expect(screen.getByRole('link', { name: 'Connect payouts' })).toHaveAttribute('href', '/admin/payment');
    expect(screen.getByText('Connect payouts first: tips unlock as soon as your payout account is ready.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Curate a Q&A' })).toHaveAttribute('href', '/admin/questions-curated');

    await user.type(screen.getByLabelText('Bio'), 'I bake bread.');
    await user.click(screen.getByRole('button', { name: 'Save bio' }));
    await screen.findByText('2 of 7 steps done');
    // Issue 28: the save says what it did in a toast.
    expect(toasts().getByText('Bio saved')).toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ bio: 'I bake bread.', name: 'Ada Lovelace' });
  });

  it('issue 28: an empty bio is refused under its field, the error gone as soon as it is written', async () => {
    const { mock, user } = renderAdmin('/admin/setup', { 'GET /api/users/onboarding': () => json(checklist()) });
    restore = mock.restore;
    const bio = await screen.findByLabelText('Bio');
    await user.click(screen.getByRole('button', { name: 'Save bio' }));
    expect(bio).toHaveAttribute('aria-invalid', 'true');
    expect(bio).toHaveAccessibleDescription(expect.stringContaining('Please write a line or two about you.'));
    expect(bio).toHaveFocus();
    expect(screen.getByText('Please correct the highlighted field.')).toBeInTheDocument();
    await user.type(bio, 'I');
    expect(bio).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Please correct the highlighted field.')).not.toBeInTheDocument();
    expect(mock.calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('asks before leaving with a bio not saved', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { mock, user } = renderAdmin('/admin/setup', { 'GET /api/users/onboarding': () => json(checklist()) });
    restore = mock.restore;
    await user.type(await screen.findByLabelText('Bio'), 'Half a thought');
    await user.click(within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: 'View my page' }));
    expect(confirm).toHaveBeenCalledWith('You have unsaved changes. Leave anyway?');
    expect(screen.getByRole('heading', { level: 1, name: 'Set up your page' })).toBeInTheDocument();
    confirm.mockRestore();
  });

  it('copying the link marks it shared on the server; all done shows the end', async () => {
    let state = checklist({ photo: true, bio: true, colors: true, payouts: true, tips: true, publicAnswer: true });
    const { mock, user } = renderAdmin('/admin/setup', {
      'GET /api/users/onboarding': () => json(state),
      'POST /api/users/onboarding': () => {
        state = { ...checklist({ ...state.steps, linkShared: true }), done: true };
        return json(state);
      },
    });
    restore = mock.restore;
    // user-event installs its own clipboard; watch what is written to it.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(expect.stringMatching(/^https?:\/\/[^/]+\/ask\/ada$/));
    expect(writeText).toHaveBeenCalledWith(screen.getByLabelText<HTMLInputElement>('Your link').value);
    expect(await toasts().findByText('Link copied')).toBeInTheDocument();
    expect(inPage().queryByText(/Link copied/)).not.toBeInTheDocument();
    expect(mock.calls.find((c) => c.method === 'POST')?.body).toEqual({ mark: 'linkShared' });
    await screen.findByRole('heading', { level: 1, name: 'You’re live — share your link' });
    expect(screen.getByText('Every step is done. 7 of 7 steps done')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Hide this checklist' })).not.toBeInTheDocument();
  });

  it('issue 28: saving the colours and a photo each say so in a toast', async () => {
    let state = checklist({ bio: true });
    const { mock, user } = renderAdmin('/admin/setup', {
      'GET /api/users/onboarding': () => json(state),
      'PUT /api/users/profile': (call) => {
        state = checklist({ ...state.steps, colors: true });
        return json({ user: { ...(call.body as object), _id: 'u1', id: 'u1', username: 'ada' } });
      },
      'POST /api/users/avatar': () => {
        state = checklist({ ...state.steps, photo: true });
        return json({ user: { _id: 'u1', id: 'u1', username: 'ada', name: 'Ada Lovelace', avatarUrl: '/uploads/a.png' } });
      },
    });
    restore = mock.restore;
    await user.click(await screen.findByRole('button', { name: 'Save colours' }));
    expect(await toasts().findByText('Colours saved')).toBeInTheDocument();
    await user.upload(screen.getByLabelText('Photo file'), new File([new Uint8Array(10)], 'a.png', { type: 'image/png' }));
    expect(await toasts().findByText('Photo saved')).toBeInTheDocument();
    expect(inPage().queryByText(/saved/)).not.toBeInTheDocument();
  });

  it('issue 28: turning tips on says so in a toast; its failure stays in the step', async () => {
    let calls = 0;
    const { mock, user } = renderAdmin('/admin/setup', {
      'GET /api/users/onboarding': () => json(checklist({ payouts: true })),
      'PUT /api/payments/tipOptions': () => (++calls === 1 ? json({ message: 'down' }, { status: 500 }) : json({ tippingEnabled: true })),
    });
    restore = mock.restore;
    await user.click(await screen.findByRole('button', { name: 'Turn tips on' }));
    expect(await inPage().findByText('Failed to save payment options.')).toBeInTheDocument();
    expect(toasts().queryByText(/Tipping/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Turn tips on' }));
    expect(await toasts().findByText('Tipping turned on')).toBeInTheDocument();
  });

  it('hides the checklist on request (kept on the server) and goes to the questions', async () => {
    const { mock, user } = renderAdmin('/admin/setup', {
      'GET /api/users/onboarding': () => json(checklist()),
      'POST /api/users/onboarding': () => json(checklist({}, { dismissed: true })),
      'GET /api/questions': () => json([]),
    });
    restore = mock.restore;
    await user.click(await screen.findByRole('button', { name: 'Hide this checklist' }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: 'Set up your page' })).not.toBeInTheDocument());
    expect(mock.calls.find((c) => c.method === 'POST')?.body).toEqual({ mark: 'dismissed' });
  });
});

describe('the admin navigation (issue 28)', () => {
  it('links to the owner’s public page and to the set-up page', async () => {
    const { mock } = renderAdmin('/admin/setup', { 'GET /api/users/onboarding': () => json(checklist()) });
    restore = mock.restore;
    const nav = await screen.findByRole('navigation', { name: 'Admin' });
    expect(within(nav).getByRole('link', { name: 'View my page' })).toHaveAttribute('href', '/ask/ada');
    expect(within(nav).getByRole('link', { name: 'Set-up' })).toHaveAttribute('aria-current', 'page');
  });

  it('the avatar menu links to the owner’s public page', async () => {
    const { mock, user } = renderAdmin('/admin/setup', { 'GET /api/users/onboarding': () => json(checklist()) });
    restore = mock.restore;
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'View my page' })).toHaveAttribute('href', '/ask/ada');
  });
});
