import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNavigationType } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublicProfile, PublicQuestion } from '@ques/contracts/core';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { json, mockFetch, type RecordedCall } from '../../test/fetch-mock';
import { AuthProvider } from '../../lib/auth/auth-context';
import ProfilePage, { type AskModalSlot } from './ProfilePage';

const profile: PublicProfile = {
  _id: 'u1',
  id: 'u1',
  username: 'ada',
  name: 'Ada Lovelace',
  bio: 'I answer questions about engines.',
  avatarUrl: '/uploads/ada.png',
  brandColorMain: '#2F4A3A',
  brandColorLight: '#F4F1EA',
  archiveProfile: false,
};

const q = (id: string, extra: Partial<PublicQuestion> = {}): PublicQuestion => ({
  _id: id,
  id,
  question: `Question ${id}?`,
  detail: '',
  answer: `Answer ${id}`,
  source: '',
  status: 'Answered',
  isCurated: false,
  toUsername: 'ada',
  recipientName: 'Ada Lovelace',
  replierName: 'Ada Lovelace',
  createdAt: '2025-03-01T00:00:00.000Z',
  updatedAt: '2025-03-01T00:00:00.000Z',
  answeredAt: '2025-03-01T00:00:00.000Z',
  displayOnProfile: true,
  deletedByReceiver: false,
  tags: [],
  ...extra,
});

/** The app hands the page its ask modal; here a stand-in that shows whom it was opened for. */
const askModal: AskModalSlot = {
  Modal: ({ recipient }) => <div role="dialog" aria-label={`Ask ${recipient.name} a question`} />,
  preload: () => Promise.resolve(),
};

function LocationProbe() {
  const location = useLocation();
  const how = useNavigationType();
  return (
    <output data-testid="location" data-navigation={how}>
      {`${location.pathname}${location.search}`}
    </output>
  );
}

/** The full answer on the card's back (its front shows only the start of it). */
function answerOnBack(id: string): HTMLElement {
  const answer = document.querySelector<HTMLElement>('.qa-card__back .qa-card__answer')!;
  expect(answer).toHaveTextContent(`Answer ${id}`);
  return answer;
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function open(
  options: {
    profile?: Partial<PublicProfile>;
    pages?: PublicQuestion[][];
    signedInAs?: string;
    profileStatus?: number;
    path?: string;
    routes?: Record<string, (call: RecordedCall) => Response>;
  } = {},
) {
  const pages = options.pages ?? [[q('a')]];
  const mock = mockFetch({
    'GET /api/users/public/ada': () =>
      options.profileStatus ? json({}, { status: options.profileStatus }) : json({ ...profile, ...options.profile }),
    'GET /api/questions': (call) => {
      const cursor = new URL(call.url, 'http://x').searchParams.get('cursor');
      const index = cursor ? Number(cursor) : 0;
      const next = index + 1 < pages.length ? { 'x-next-cursor': String(index + 1) } : undefined;
      return json(pages[index] ?? [], { headers: next });
    },
    'GET /api/users/profile': () =>
      json({ _id: 'me', id: 'me', username: options.signedInAs, name: 'Me', email: 'me@example.com' }),
    'GET /api/payments/tipOptions': () => json({ tipOptions: [], tippingEnabled: false }),
    ...options.routes,
  });
  restore = mock.restore;
  if (options.signedInAs) window.localStorage.setItem('accessToken', 'token');
  render(
    <MemoryRouter initialEntries={[options.path ?? '/ask/ada']}>
      <AuthProvider>
        <Routes>
          <Route path="ask/:username" element={<><ProfilePage ask={askModal} /><LocationProbe /></>} />
          <Route path="ask/:username/question/:id/:slug?" element={<h1>answer page</h1>} />
        </Routes>
      </AuthProvider>
    </MemoryRouter>,
  );
  return mock;
}

describe('public profile /ask/:username', () => {
  it('tells a tipper back from the checkout that the question was sent, and tidies the address', async () => {
    open({ path: '/ask/ada?checkout=success&questionId=q9&session_id=cs_1&tag=x' });
    expect(await screen.findByText('Your question was sent to Ada Lovelace.')).toBeInTheDocument();
    expect(screen.getByText(/Your tip is held on your card and only charged when Ada Lovelace/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/ask\/ada\?tag=x$/));
    // The notice stays after the address changed.
    expect(screen.getByText('Your question was sent to Ada Lovelace.')).toBeInTheDocument();
  });

  it('tells a tipper who cancelled the checkout that nothing was sent or charged', async () => {
    open({ path: '/ask/ada?checkout=cancelled&questionId=q9' });
    expect(
      await screen.findByText('Checkout cancelled: your question was not sent and nothing was charged.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/ask\/ada$/));
  });

  it('shows the loading text, then the owner, their answers and the ask button', async () => {
    open();
    expect(screen.getByText('Loading profile...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('I answer questions about engines.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Ask Ada Lovelace a Question' })).toBeInTheDocument();
    expect(document.title).toBe('Ada Lovelace — Ask Me Anything');
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toMatch(/\/ask\/ada$/);
  });

  it('adds a cache-busting version to a custom avatar', async () => {
    open();
    const img = await screen.findByRole('img', { name: 'Ada Lovelace' });
    expect(img.getAttribute('src')).toMatch(/^\/uploads\/ada\.png\?v=\w+/);
    expect(img).toHaveAttribute('width', '80');
  });

  it('keeps the default avatar URL as it is', async () => {
    open({ profile: { avatarUrl: '/images/user-image.png' } });
    const img = await screen.findByRole('img', { name: 'Ada Lovelace' });
    expect(img).toHaveAttribute('src', '/images/user-image.png');
  });

  it('lists only published answers addressed to the owner, newest first, linking with the slug', async () => {
    open({
      pages: [
        [
          q('old', { createdAt: '2025-01-01T00:00:00.000Z' }),
          q('new', { createdAt: '2025-05-01T00:00:00.000Z', question: 'What’s new, Ada?' }),
          q('pending', { answer: '' }),
          q('hidden', { displayOnProfile: false }),
          q('deleted', { deletedByReceiver: true }),
          q('other', { toUsername: 'grace' }),
        ],
      ],
    });
    const list = await screen.findByRole('list', { name: 'Answers from Ada Lovelace' });
    const fronts = within(list).getAllByRole('button', { name: /View Answer/ });
    expect(fronts).toHaveLength(2);
    // Each named with its question; the front also shows the start of the answer and the date (issue 28).
    expect(fronts[0]).toHaveAccessibleName('View Answer What’s new, Ada?');
    expect(fronts[1]).toHaveAccessibleName('View Answer Question old?');
    const front = fronts[0]!.closest<HTMLElement>('.qa-card__front')!;
    expect(within(front).getByRole('heading', { level: 3 })).toHaveTextContent('What’s new, Ada?');
    expect(within(front).getByText('Answer new')).toHaveClass('qa-card__preview');
    expect(within(front).getByText('Mar 1, 2025')).toHaveAttribute('datetime', '2025-03-01T00:00:00.000Z');
    await userEvent.setup().click(fronts[0]!);
    expect(screen.getAllByRole('link', { name: 'What’s new, Ada?' })[0]).toHaveAttribute(
      'href',
      '/ask/ada/question/new/whats-new-ada',
    );
  });

  it('flips a card with a click and back with "Close"', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: /View Answer/ }));
    expect(answerOnBack('a')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('button', { name: /View Answer/ })).toBeVisible();
  });

  it('opens a card on a left swipe over 50 px and closes it on a right swipe', async () => {
    open();
    const card = (await screen.findAllByTestId('flip-card'))[0]!;
    const swipe = (from: number, to: number) => {
      fireEvent.touchStart(card, { touches: [{ clientX: from, clientY: 100 }] });
      fireEvent.touchEnd(card, { changedTouches: [{ clientX: to, clientY: 100 }] });
    };
    swipe(200, 170); // 30 px: not a swipe
    expect(answerOnBack('a')).not.toBeVisible();
    swipe(200, 140);
    expect(answerOnBack('a')).toBeVisible();
    swipe(100, 160);
    expect(answerOnBack('a')).not.toBeVisible();
  });

  it('filters by tag', async () => {
    const user = userEvent.setup();
    open({ pages: [[q('a', { tags: ['pricing'] }), q('b', { tags: ['career'] })]] });
    await user.click(await screen.findByRole('button', { name: '#career' }));
    expect(screen.getAllByRole('button', { name: /View Answer/ })).toHaveLength(1);
    expect(screen.getByRole('button', { name: '#career' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'All' }));
    expect(screen.getAllByRole('button', { name: /View Answer/ })).toHaveLength(2);
  });

  it('loads the next page with the x-next-cursor header', async () => {
    const user = userEvent.setup();
    const mock = open({ pages: [[q('a')], [q('b', { createdAt: '2024-01-01T00:00:00.000Z' })]] });
    await user.click(await screen.findByRole('button', { name: 'Load more answers' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: /View Answer/ })).toHaveLength(2));
    expect(mock.calls.some((c) => c.url.includes('cursor=1'))).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load more answers' })).not.toBeInTheDocument();
  });

  it('shows the archive banner and badge, and no ask button, on an archive profile', async () => {
    open({ profile: { archiveProfile: true } });
    expect(await screen.findByText('Non-affiliated profile')).toBeInTheDocument();
    expect(screen.getByText(/curated archive/)).toBeInTheDocument();
    expect(screen.getByText(/not affiliated with/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Ask / })).not.toBeInTheDocument();
  });

  it('shows the owner their banner and the curate button instead of the ask button', async () => {
    open({ signedInAs: 'ada' });
    expect(await screen.findByText('You are viewing your own public page')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Curate my own Q&As' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Ask / })).not.toBeInTheDocument();
  });

  it('keeps "Report this profile" in the ⋯ menu, after the ask button, opened and closed from the keyboard', async () => {
    const user = userEvent.setup();
    open();
    const ask = await screen.findByRole('button', { name: 'Ask Ada Lovelace a Question' });
    expect(screen.queryByRole('button', { name: /Report/ })).not.toBeInTheDocument();
    const more = screen.getByRole('button', { name: 'More actions for this page' });
    // Reached after the ask button: nothing stands between the visitor and it.
    expect(ask.compareDocumentPosition(more) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    more.focus();
    await user.keyboard('{Enter}');
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Copy link to this page',
      'Report this profile',
    ]);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(more).toHaveFocus();
  });

  it('leaves "Report" out of the ⋯ menu on the owner’s own page', async () => {
    const user = userEvent.setup();
    open({ signedInAs: 'ada' });
    expect(await screen.findByText('You are viewing your own public page')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'More actions for this page' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Copy link to this page']);
    expect(screen.queryByText(/Report/)).not.toBeInTheDocument();
  });

  it('shows the designed not-found page for an unknown profile, never a raw error', async () => {
    open({ profileStatus: 404 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(screen.queryByText(/Error:/)).not.toBeInTheDocument();
    expect(document.title).toBe('Page not found — Ques');
  });

  it('reports a profile that fails to load for another reason', async () => {
    open({ profileStatus: 503 });
    expect(await screen.findByText('Error: Failed to fetch user profile (status: 503)')).toBeInTheDocument();
  });

  it('opens the ask modal', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: 'Ask Ada Lovelace a Question' }));
    expect(await screen.findByRole('dialog', { name: 'Ask Ada Lovelace a question' })).toBeInTheDocument();
  });

  it('issue 28: reached in the app at an old handle, replaces the address with the new one, never showing the old one’s empty page', async () => {
    // Every node put on the page, in order: what a visitor could have seen, even for one frame.
    const shown: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const r of records) for (const node of r.addedNodes) shown.push(node.textContent ?? '');
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    // Identity answers the old handle with the profile under its new one; questions know only the new one.
    const mock = open({
      path: '/ask/ada-lovelace?tag=engines',
      pages: [[q('a', { tags: ['engines'] })]],
      routes: {
        'GET /api/users/public/ada-lovelace': () => json(profile),
        'GET /api/questions': (call) =>
          json(new URL(call.url, 'http://x').searchParams.get('username') === 'ada' ? [q('a', { tags: ['engines'] })] : []),
      },
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/ask\/ada\?tag=engines$/));
    // Replaced, not pushed: Back does not return to the old handle.
    expect(screen.getByTestId('location')).toHaveAttribute('data-navigation', 'REPLACE');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Answers from Ada Lovelace' })).toHaveTextContent('Question a?');
    expect(mock.calls.some((c) => c.url === '/api/users/public/ada')).toBe(true);
    observer.disconnect();
    expect(shown.join('\n')).not.toMatch(/published any answers|No answers/);
  });
});
