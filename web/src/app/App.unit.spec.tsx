import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_TIP_OPTIONS } from '@ques/contracts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { json, mockFetch } from '../test/fetch-mock';
import { App } from './App';

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe('the app composes the features', () => {
  it('opens the ask feature’s modal from the public profile', async () => {
    const mock = mockFetch({
      'GET /api/users/public/ada': () =>
        json({
          _id: 'u1',
          id: 'u1',
          username: 'ada',
          name: 'Ada Lovelace',
          bio: '',
          avatarUrl: '/images/user-image.png',
          brandColorMain: '#1A140F',
          brandColorLight: '#FAF6F2',
          archiveProfile: false,
        }),
      'GET /api/questions': () => json([]),
      'GET /api/payments/tipOptions': () => json({ tipOptions: DEFAULT_TIP_OPTIONS, tippingEnabled: true }),
    });
    restore = mock.restore;
    render(
      <MemoryRouter initialEntries={['/ask/ada']}>
        <App />
      </MemoryRouter>,
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Ask Ada Lovelace a Question' }));
    expect(await screen.findByRole('dialog', { name: 'Ask Ada Lovelace a question' })).toBeInTheDocument();
    expect(await screen.findByRole('radio', { name: '$5' })).toBeInTheDocument();
  });

  it('opens the support dialog for a guest from the footer and from a status page (issue 28)', async () => {
    const token = 'b'.repeat(43);
    const mock = mockFetch({
      [`POST /api/question-status/${token}/confirm`]: () =>
        json({
          questionId: 'q1',
          question: 'Which loom?',
          detail: '',
          publicQuestion: null,
          publicDetail: null,
          toName: 'Ada Lovelace',
          toUsername: 'ada',
          toAvatarUrl: '/images/user-image.png',
          brandColorMain: '#1A140F',
          brandColorLight: '#FAF6F2',
          status: 'Pending',
          askedAt: '2026-12-01T11:59:00.000Z',
          answer: null,
          answeredAt: null,
          isPublic: false,
          answerPath: null,
          timeline: [{ step: 'asked', at: '2026-12-01T11:59:00.000Z' }],
          isPrivate: false,
          tip: null,
          emailConfirmed: true,
        }),
    });
    restore = mock.restore;
    render(
      <MemoryRouter initialEntries={[`/q/${token}`]}>
        <App />
      </MemoryRouter>,
    );
    const user = userEvent.setup();
    await screen.findByText('Which loom?');
    const [onPage, inFooter] = screen.getAllByRole('button', { name: 'Contact support' });
    expect(inFooter!.closest('footer')).not.toBeNull();
    for (const button of [onPage!, inFooter!]) {
      await user.click(button);
      const dialog = await screen.findByRole('dialog', { name: 'Support' });
      await user.keyboard('{Escape}');
      await waitFor(() => expect(dialog).not.toBeInTheDocument());
    }
  });
});
