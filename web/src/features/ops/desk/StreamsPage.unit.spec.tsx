import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { json, mockFetch } from '../../../test/fetch-mock';
import StreamsPage, { POSITION_INVALID } from './StreamsPage';

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function open() {
  const mock = mockFetch({
    'GET /api/ops/streams/questions/dead-letters': () => json([]),
    'POST /api/ops/streams/questions/republish': () =>
      json({ id: 'j1', command: 'republish', status: 'running', progress: { done: 0, total: null, phase: null }, error: null }, { status: 202 }),
  });
  restore = mock.restore;
  render(
    <MemoryRouter>
      <StreamsPage />
    </MemoryRouter>,
  );
  return { mock, user: userEvent.setup() };
}

describe('event streams: republish (issue 28, per-field errors)', () => {
  it('says under the field why a position is refused, before any confirmation, and clears it as soon as it is valid', async () => {
    const { mock, user } = open();
    const form = await screen.findByRole('form', { name: 'Republish' });
    const position = within(form).getByLabelText('Republish from position');
    await user.clear(position);
    await user.type(position, '-3');
    await user.click(within(form).getByRole('button', { name: 'Republish from -3' }));
    // Under its field, wired to it, counted above: no dialog, nothing sent.
    expect(position).toHaveAttribute('aria-invalid', 'true');
    expect(position).toHaveAccessibleDescription(POSITION_INVALID);
    expect(position).toHaveFocus();
    expect(screen.getByText('Please correct the highlighted field.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Gone the moment the field is valid, before the next submit.
    await user.clear(position);
    await user.type(position, '12');
    expect(position).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(POSITION_INVALID)).not.toBeInTheDocument();
    expect(screen.queryByText('Please correct the highlighted field.')).not.toBeInTheDocument();

    await user.click(within(form).getByRole('button', { name: 'Republish from 12' }));
    const dialog = await screen.findByRole('dialog', { name: "Republish questions's events?" });
    await user.click(within(dialog).getByRole('button', { name: 'Republish' }));
    await waitFor(() => expect(mock.calls.find((c) => c.method === 'POST')?.body).toEqual({ from: 12 }));
  });

  it('refuses a fraction as well (the API takes whole numbers)', async () => {
    const { user } = open();
    const position = await screen.findByLabelText('Republish from position');
    await user.clear(position);
    await user.type(position, '1.5');
    await user.click(screen.getByRole('button', { name: 'Republish from 1.5' }));
    expect(position).toHaveAccessibleDescription(POSITION_INVALID);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
