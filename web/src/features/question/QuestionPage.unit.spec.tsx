import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNavigationType } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublicProfile, PublicQuestion } from '@ques/contracts/core';
import { AuthProvider } from '../../lib/auth/auth-context';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { PageDataProvider, type PageData } from '../../lib/ssr';
import { json, mockFetch } from '../../test/fetch-mock';
import QuestionPage from './QuestionPage';

const ID = '1a2b3c4d-0000-4000-8000-000000000001';
const profile: PublicProfile = {
  _id: 'u1',
  id: 'u1',
  username: 'ada',
  name: 'Ada Lovelace',
  bio: '',
  avatarUrl: '/images/user-image.png',
  brandColorMain: '#2F4A3A',
  brandColorLight: '#F4F1EA',
  archiveProfile: false,
};
const question = (extra: Partial<PublicQuestion> = {}): PublicQuestion => ({
  _id: ID,
  id: ID,
  question: 'What is a Bernoulli number?',
  detail: '',
  answer: 'A rational number the engine computes.',
  source: '',
  status: 'Answered',
  isCurated: true,
  toUsername: 'ada',
  recipientName: 'Ada Lovelace',
  replierName: 'Ada Lovelace',
  createdAt: '2025-03-01T00:00:00.000Z',
  updatedAt: '2025-03-01T00:00:00.000Z',
  answeredAt: '2025-03-02T00:00:00.000Z',
  displayOnProfile: true,
  deletedByReceiver: false,
  tags: [],
  ...extra,
});

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function open(options: { question?: PublicQuestion | null; signedInAs?: string; path?: string; data?: PageData } = {}) {
  const q = options.question === undefined ? question() : options.question;
  const mock = mockFetch({
    [`GET /api/questions/${ID}`]: () => (q ? json(q) : json({ message: 'Question not found' }, { status: 404 })),
    'GET /api/users/public/ada': () => json(profile),
    'GET /api/users/profile': () =>
      json({ _id: 'me', id: 'me', username: options.signedInAs, name: 'Me', email: 'me@example.com' }),
  });
  restore = mock.restore;
  if (options.signedInAs) {
    window.localStorage.setItem('accessToken', 'token');
    window.localStorage.setItem('userData', JSON.stringify({ _id: 'me', id: 'me', username: options.signedInAs, name: 'Me' }));
  }
  render(
    <MemoryRouter initialEntries={[options.path ?? `/ask/ada/question/${ID}/slug`]}>
      <PageDataProvider holder={{ current: options.data ?? null }}>
        <AuthProvider>
          <Routes>
            <Route path="ask/:username/question/:id/:slug?" element={<QuestionPage />} />
          </Routes>
        </AuthProvider>
      </PageDataProvider>
    </MemoryRouter>,
  );
  return mock;
}

const notFoundShown = async () => {
  expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  expect(screen.queryByText(/Error:|not available/)).not.toBeInTheDocument();
};

describe('answer page /ask/:username/question/:id', () => {
  it('shows the question, the answer and its date, with "Report this answer" in the ⋯ menu', async () => {
    const user = userEvent.setup();
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'What is a Bernoulli number?' })).toBeInTheDocument();
    expect(screen.getByText('Mar 2, 2025').tagName).toBe('TIME');
    expect(screen.queryByRole('button', { name: /Report/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'More actions for this answer' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Copy link to this page', 'Report this answer']);
  });

  it('leaves "Report" out for the owner', async () => {
    const user = userEvent.setup();
    open({ signedInAs: 'ada' });
    await user.click(await screen.findByRole('button', { name: 'More actions for this answer' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Copy link to this page']);
  });

  it('shows the designed not-found page for an unknown answer', async () => {
    open({ question: null });
    await notFoundShown();
  });

  it('shows the designed not-found page for a hidden answer and for another owner’s', async () => {
    open({ question: question({ displayOnProfile: false }) });
    await notFoundShown();
    restore?.();
    document.body.innerHTML = '';
    open({ question: question({ toUsername: 'grace' }) });
    await notFoundShown();
  });

  it('shows the not-found page the server rendered (its data says 404) without asking the API', async () => {
    const mock = open({
      data: { path: `/ask/ada/question/${ID}/slug`, values: { [`answer:${ID}`]: { error: 'Not found', status: 404 } } },
    });
    await notFoundShown();
    expect(mock.calls.filter((c) => c.url.includes('/api/questions'))).toEqual([]);
  });

  it('issue 28: reached in the app at an old handle, replaces the address with the new one before showing the answer', async () => {
    // The mutations in order: an answer put on the page before the address changed is a flash under the old handle.
    let moved = false;
    let flashed = false;
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        if (screen.queryByTestId('location')?.contains(r.target) && r.target.textContent?.startsWith('/ask/ada/')) moved = true;
        for (const node of r.addedNodes)
          if (!moved && node instanceof Element && (node.matches('h1') || node.querySelector('h1'))) flashed = true;
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    const mock = mockFetch({
      [`GET /api/questions/${ID}`]: () => json(question()),
      // Identity answers the old handle with the profile under its new one (ADR 0057).
      'GET /api/users/public/ada-lovelace': () => json(profile),
      'GET /api/users/public/ada': () => json(profile),
    });
    restore = mock.restore;
    render(
      <MemoryRouter initialEntries={[`/ask/ada-lovelace/question/${ID}/slug?ref=x#top`]}>
        <AuthProvider>
          {/* Before the page: in one commit its text changes before the page's nodes go in. */}
          <LocationProbe />
          <Routes>
            <Route path="ask/:username/question/:id/:slug?" element={<QuestionPage />} />
          </Routes>
        </AuthProvider>
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'What is a Bernoulli number?' })).toBeInTheDocument();
    const location = screen.getByTestId('location');
    expect(location).toHaveTextContent(`/ask/ada/question/${ID}/slug?ref=x#top`);
    expect(location).toHaveAttribute('data-navigation', 'REPLACE');
    observer.disconnect();
    expect(flashed).toBe(false);
  });
});

function LocationProbe() {
  const { pathname, search, hash } = useLocation();
  return (
    <output data-testid="location" data-navigation={useNavigationType()}>
      {`${pathname}${search}${hash}`}
    </output>
  );
}
