import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fetch-mock';
import { question, renderAdmin } from '../../test/render-app';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));

const pending = question({ _id: 'q1', question: 'Why so quiet?', askedName: 'Pat Pester', createdAt: '2025-03-14T10:00:00.000Z' });

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('inbox: Block this asker, and the reminder link (issue 16)', () => {
  it('blocks the asker from the row menu and says where to lift it', async () => {
    const result = renderAdmin('/admin', {
      'GET /api/questions': () => json([pending]),
      'POST /api/questions/q1/block': () =>
        json({ id: 'b1', label: 'Pat Pester', byAccount: false, byEmail: true, byDevice: true, createdAt: '2025-03-15T00:00:00.000Z' }, { status: 201 }),
    });
    cleanup = result.mock.restore;
    await screen.findByRole('table');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'More actions for “Why so quiet?”' }));
    await user.click(screen.getByRole('button', { name: 'Block this asker' }));
    expect(await screen.findByText(/Pat Pester is blocked: their next questions to you are refused\./)).toBeInTheDocument();
    expect(result.mock.calls.some((c) => c.method === 'POST' && c.url === '/api/questions/q1/block')).toBe(true);
  });

  it("opens the linked question's answer form from a reminder's /admin?answer={id}", async () => {
    const result = renderAdmin('/admin?answer=q1', { 'GET /api/questions': () => json([pending]) });
    cleanup = result.mock.restore;
    expect(await screen.findByRole('dialog', { name: 'Answer question' })).toBeInTheDocument();
    await waitFor(() => expect(window.location.search).toBe(''));
  });
});
