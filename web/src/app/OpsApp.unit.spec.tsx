import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { OPS_MESSAGES } from '@ques/contracts/core';
import { MemoryRouter } from 'react-router-dom';
import { json, mockFetch } from '../test/fetch-mock';
import { me } from '../test/render-app';
import { App } from './App';

/** An unsigned token whose payload the app reads as a hint only (the server checks every call). */
const tokenWith = (claims: Record<string, unknown>) =>
  `e30.${btoa(JSON.stringify({ sub: 'u1', username: 'ada', ...claims })).replace(/=+$/, '')}.sig`;

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  localStorage.clear();
});

function renderOps(path: string, token: string, routes: Parameters<typeof mockFetch>[0] = {}) {
  localStorage.setItem('accessToken', token);
  const mock = mockFetch({ 'GET /api/users/profile': () => json(me), 'POST /api/ops/session': () => new Response(null, { status: 204 }), ...routes });
  restore = mock.restore;
  render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );
  return mock;
}

describe('the operator console (issue 18)', () => {
  it('is a not-found page for a signed-in owner, who never loads it or calls its routes', async () => {
    const mock = renderOps('/ops/archives', tokenWith({}));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Operator console' })).not.toBeInTheDocument();
    expect(mock.calls.filter((c) => c.url.includes('/api/ops/'))).toEqual([]);
  });

  it("opens for an operator's session: the console's navigation, the audit log, and the /ops cookie requested", async () => {
    const mock = renderOps('/ops', tokenWith({ op: true }), {
      'GET /api/ops/audit/identity': () =>
        json({ entries: [{ id: 'a1', service: 'identity', operatorId: 'u1', operatorUsername: 'ada', action: 'archive.create', subject: 'user:x', summary: 'Created the archive profile @hedy', at: '2026-11-23T00:00:00.000Z' }] }),
      'GET /api/ops/audit/questions': () => json({ entries: [] }),
      // Every service's operator actions are in the one list (support's answered requests, payments' stream actions).
      'GET /api/ops/audit/support': () =>
        json({ entries: [{ id: 's1', service: 'support', operatorId: 'u1', operatorUsername: 'ada', action: 'support.answer', subject: 'supportRequest:r', summary: 'Marked a support request answered', at: '2026-11-23T00:01:00.000Z' }] }),
      'GET /api/ops/audit/payments': () =>
        json({ entries: [{ id: 'p1', service: 'payments', operatorId: 'u1', operatorUsername: 'ada', action: 'deadLetter.drop', subject: 'deadLetter:payments:1', summary: 'Dropped dead letter #1 of payments', at: '2026-11-23T00:02:00.000Z' }] }),
      'GET /api/ops/archives': () => json({ archives: [] }),
    });
    const nav = await screen.findByRole('navigation', { name: 'Operator console' });
    expect(nav).toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Created the archive profile @hedy' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Marked a support request answered' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Dropped dead letter #1 of payments' })).toBeInTheDocument();
    expect(mock.calls.some((c) => c.method === 'POST' && c.url.endsWith('/api/ops/session'))).toBe(true);
    await userEvent.setup().click(screen.getByRole('link', { name: 'Archive profiles' }));
    expect(await screen.findByRole('heading', { name: 'Archive profiles', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('No archive profile yet.')).toBeInTheDocument();
  });

  it("curates an archive's Q&A: the source is required before anything is sent, then the answer is listed with it", async () => {
    const archive = { id: '6f1c7c52-3b9e-4c43-9d1e-1f4b2c3d4e5f', username: 'hedy', name: 'Hedy Lamarr', bio: '', avatarUrl: '/images/user-image.png', archiveProfile: true, sources: '' };
    const created = {
      _id: 'q1', id: 'q1', question: 'Why invent?', detail: '', answer: 'It comes naturally.', source: 'Ecstasy and Me, page 33', tags: [],
      status: 'Answered', isCurated: true, displayOnProfile: true, deletedByReceiver: false, toUsername: 'hedy', recipientName: 'Hedy Lamarr',
      replierName: 'Hedy Lamarr', createdAt: '2026-11-23T00:00:00.000Z', updatedAt: '2026-11-23T00:00:00.000Z', answeredAt: '2026-11-23T00:00:00.000Z',
    };
    const mock = renderOps(`/ops/archives/${archive.id}`, tokenWith({ op: true }), {
      'GET /api/ops/archives': () => json({ archives: [archive] }),
      [`GET /api/ops/archives/${archive.id}/curated`]: () => json([]),
      [`POST /api/ops/archives/${archive.id}/curated`]: () => json(created, { status: 201 }),
      'DELETE /api/ops/curated/q1': () => json({ questionId: 'q1', deleted: true }),
    });
    expect(await screen.findByRole('heading', { name: 'Curated Q&A of @hedy', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('No curated Q&A yet.')).toBeInTheDocument();
    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Add a curated Q&A' });
    await user.type(within(form).getByLabelText(/^Question title/), 'Why invent?');
    await user.type(within(form).getByLabelText(/^Answer/), 'It comes naturally.');
    await user.click(within(form).getByRole('button', { name: 'Add curated Q&A' }));
    expect(await within(form).findByText(OPS_MESSAGES.sourceRequired)).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Source/)).toHaveAttribute('aria-invalid', 'true');
    expect(mock.calls.filter((c) => c.method === 'POST' && c.url.includes('/curated'))).toEqual([]);

    await user.type(within(form).getByLabelText(/^Source/), 'Ecstasy and Me, page 33');
    await user.click(within(form).getByRole('button', { name: 'Add curated Q&A' }));
    const list = await screen.findByRole('list', { name: 'Curated Q&A' });
    expect(within(list).getByText('Source: Ecstasy and Me, page 33')).toBeInTheDocument();
    const post = mock.calls.find((c) => c.method === 'POST' && c.url.includes('/curated'))!;
    expect(post.body).toMatchObject({ question: 'Why invent?', answer: 'It comes naturally.', source: 'Ecstasy and Me, page 33', displayOnProfile: true });
    // One Idempotency-Key per submit: a retried submit is the same Q&A.
    expect(post.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);

    // Deleting asks first (a destructive action), then the item leaves the list.
    await user.click(within(list).getByRole('button', { name: 'Delete “Why invent?”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this curated Q&A?' });
    expect(mock.calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No curated Q&A yet.')).toBeInTheDocument();
    expect(mock.calls.filter((c) => c.method === 'DELETE').map((c) => new URL(c.url, 'http://x').pathname)).toEqual(['/api/ops/curated/q1']);
  });
});
