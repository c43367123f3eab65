import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AVATAR_TOO_BIG } from '../../../lib/avatar-upload';
import { MemoryRouter } from 'react-router-dom';
import { json, mockFetch } from '../../../test/fetch-mock';
import ArchivesSection from './ArchivesPage';

let restore: (() => void) | undefined;
afterEach(() => restore?.());

const hedy = { id: 'a1', username: 'hedy', name: 'Hedy Lamarr', bio: '', avatarUrl: '/images/user-image.png', archiveProfile: true, sources: '' };
const png = (bytes: number) => new File([new Uint8Array(bytes)], 'hedy.png', { type: 'image/png' });

function open() {
  const mock = mockFetch({
    'GET /api/ops/archives': () => json({ archives: [] }),
    'POST /api/ops/archives': () => json(hedy, { status: 201 }),
    'POST /api/ops/archives/a1/avatar': () => json(hedy),
  });
  restore = mock.restore;
  render(
    <MemoryRouter>
      <ArchivesSection />
    </MemoryRouter>,
  );
  return { mock, user: userEvent.setup({ applyAccept: false }) };
}

describe('the archive profile form (issue 28, per-field errors)', () => {
  it('shows the name’s and the avatar’s errors together under their fields, each gone as soon as it is valid', async () => {
    const { mock, user } = open();
    const form = await screen.findByRole('form', { name: 'Create an archive profile' });
    const name = within(form).getByLabelText(/^Name/);
    const avatar = within(form).getByLabelText(/^Avatar/);
    await user.upload(avatar, png(2_097_152));
    await user.click(within(form).getByRole('button', { name: 'Create archive profile' }));

    // Both at once, each under its own field, counted; the first one focused; nothing sent.
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(avatar).toHaveAttribute('aria-invalid', 'true');
    expect(avatar).toHaveAccessibleDescription(expect.stringContaining(AVATAR_TOO_BIG));
    expect(within(form).getByText('Please correct the 2 highlighted fields.')).toBeInTheDocument();
    expect(name).toHaveFocus();
    expect(mock.calls.filter((c) => c.method === 'POST')).toEqual([]);

    // The name filled: its error goes at once, the avatar's stays.
    await user.type(name, 'Hedy Lamarr');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(avatar).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByText('Please correct the highlighted field.')).toBeInTheDocument();
    // A smaller image: the last error goes.
    await user.upload(avatar, png(1000));
    expect(avatar).not.toHaveAttribute('aria-invalid');
    expect(within(form).queryByText(/Please correct/)).not.toBeInTheDocument();

    await user.click(within(form).getByRole('button', { name: 'Create archive profile' }));
    await waitFor(() => expect(mock.calls.map((c) => `${c.method} ${c.url}`)).toContain('POST /api/ops/archives/a1/avatar'));
    expect(await screen.findByText('Created @hedy.')).toBeInTheDocument();
  });
});
