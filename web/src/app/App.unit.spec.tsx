import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_TIP_OPTIONS } from '@ques/contracts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from '../lib/router';
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
});
