import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from '../lib/router';
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
});
