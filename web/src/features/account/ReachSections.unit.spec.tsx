import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataExport } from '@ques/contracts/core';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAppAt, toasts } from '../../test/render-app';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));

const me = { _id: 'u1', id: 'u1', username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com', bio: '', brandColorMain: '#0B5FFF', brandColorLight: '#EEF3FF', archiveProfile: false };
const asking = { pausedUntil: null, pauseNote: '', pendingCap: null, blockedWords: [], builtInFilter: false, nudges: true };
const base: DataExport = { id: 'e1', status: 'requested', requestedAt: '2026-11-22T10:00:00.000Z', readyAt: null, expiresAt: null, sizeBytes: null, error: null };

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  vi.useRealTimers();
});

/** Issue 28: the button and the export are on their own tabs of Account Settings. */
function open(routes: Parameters<typeof mockFetch>[0], tab: 'website-button' | 'data' = 'data') {
  localStorage.setItem('accessToken', 'A1');
  const mock = mockFetch({
    'GET /api/users/profile': () => json(me),
    'GET /api/asking/settings': () => json(asking),
    'GET /api/asking/blocks': () => json([]),
    ...routes,
  });
  restore = mock.restore;
  renderAppAt(`/admin/account-settings/${tab}`);
  return mock;
}

describe('Account Settings: ask button for your website (issue 15)', () => {
  it('shows both snippets in the brand colours and copies one with spoken feedback (a toast)', async () => {
    open({ 'GET /api/users/exports': () => json({ export: null }) }, 'website-button');
    const section = await screen.findByRole('region', { name: 'Ask button for your website' });
    const link = within(section).getByLabelText('Button link');
    expect((link as HTMLTextAreaElement).value).toContain('Ask Ada Lovelace a question');
    expect((link as HTMLTextAreaElement).value).toContain('background:#0B5FFF');
    expect(within(section).getByLabelText<HTMLTextAreaElement>('Card').value).toContain('/embed/ada');
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(section).getByRole('button', { name: 'Copy button link' }));
    expect(writeText).toHaveBeenCalledWith((link as HTMLTextAreaElement).value);
    // Issue 28: in a toast (a polite live region), as every confirmation in Account Settings.
    expect(await toasts().findByText('Button link copied to clipboard.')).toBeInTheDocument();
    expect(within(section).queryByText('Button link copied to clipboard.')).not.toBeInTheDocument();
  });
});

describe('Account Settings: your data (issue 15)', () => {
  it('asks for an export, follows it while it is built, and offers the download when ready', async () => {
    let polls = 0;
    const mock = open({
      'GET /api/users/exports': () => json({ export: null }),
      'POST /api/users/exports': () => json(base, { status: 202 }),
      'GET /api/users/exports/e1': () =>
        json(++polls < 2 ? { ...base, status: 'running' } : { ...base, status: 'ready', readyAt: base.requestedAt, expiresAt: '2026-11-23T10:00:00.000Z', sizeBytes: 2048 }),
    });
    const section = await screen.findByRole('region', { name: 'Your data' });
    await within(section).findByText('You have not asked for an export yet.');
    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: 'Export my data' }));
    await within(section).findByText(/Preparing your export/);
    await within(section).findByRole('button', { name: 'Download my data (ZIP)' }, { timeout: 5_000 });
    expect(within(section).getByText(/is ready \(2\.0 kB\)/)).toBeInTheDocument();
    expect(mock.calls.filter((c) => c.method === 'POST' && c.url.includes('/api/users/exports'))).toHaveLength(1);
  });

  it('says when loading failed, and tries again', async () => {
    let fail = true;
    open({ 'GET /api/users/exports': () => (fail ? json({ message: 'Nope' }, { status: 500 }) : json({ export: null })) });
    const section = await screen.findByRole('region', { name: 'Your data' });
    expect(await within(section).findByRole('alert')).toHaveTextContent('Nope');
    fail = false;
    await userEvent.setup().click(within(section).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(section).getByText('You have not asked for an export yet.')).toBeInTheDocument());
  });

  it('shows an expired or failed export with a way to ask again', async () => {
    open({ 'GET /api/users/exports': () => json({ export: { ...base, status: 'failed', error: 'The export could not be built. Please try again.' } }) });
    const section = await screen.findByRole('region', { name: 'Your data' });
    expect(await within(section).findByText('The export could not be built. Please try again.')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Export my data' })).toBeEnabled();
  });
});
