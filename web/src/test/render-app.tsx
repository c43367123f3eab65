/** Test helpers that render the whole app for a signed-in owner (never imported by the app). */
import type { Question, User } from '@ques/contracts/core';
import type { ReactNode } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../app/App';
import { MemoryRouter } from 'react-router-dom';
import { json, mockFetch } from './fetch-mock';

export const me: User = {
  _id: 'u1',
  id: 'u1',
  username: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  emailVerified: true,
  bio: '',
  avatarUrl: '/images/user-image.png',
  brandColorMain: '#1A140F',
  brandColorLight: '#FAF6F2',
  archiveProfile: false,
  createdAt: '2025-01-01T00:00:00.000Z',
};

export const DAY = 24 * 60 * 60 * 1000;

/** A question as the API returns it to its recipient (a pending guest question to Ada unless overridden). */
export function question(overrides: Partial<Question> & { _id: string; question: string }): Question {
  return {
    id: overrides._id,
    detail: '',
    source: '',
    toUsername: 'ada',
    toUserId: 'u1',
    recipientName: 'Ada Lovelace',
    replierName: '',
    fromUsername: 'guest',
    askedName: 'Someone',
    askedEmail: 'someone@example.com',
    yourName: 'Someone',
    yourEmail: 'someone@example.com',
    createdAt: '2025-03-01T12:00:00.000Z',
    updatedAt: '2025-03-01T12:00:00.000Z',
    answeredAt: null,
    status: 'Pending',
    answer: '',
    tags: [],
    tip: 0,
    tipAmount: 0,
    currency: null,
    tipStatus: 'none',
    answerDeadline: null,
    answerWindowExpired: false,
    displayOnProfile: true,
    deletedByReceiver: false,
    isCurated: false,
    ...overrides,
  };
}

type Routes = Parameters<typeof mockFetch>[0];

/**
 * Renders the whole app at `path`, as the app layer composes it (feature tests that need the app use this rather than
 * importing app/ themselves); `extra` goes inside the router, e.g. a probe of the location.
 */
export function renderAppAt(path: string, extra?: ReactNode) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App />
      {extra}
    </MemoryRouter>,
  );
}

/** Renders the whole app at `path` for the signed-in owner. */
export function renderAdmin(path: string, routes: Routes, profile: Partial<User> = {}) {
  localStorage.setItem('accessToken', 'A1');
  const mock = mockFetch({ 'GET /api/users/profile': () => json({ ...me, ...profile }), ...routes });
  renderAppAt(path);
  return { mock, user: userEvent.setup() };
}

/** The table's body rows. */
/** The app's toasts (issue 28: a save says what it did there, not in the page). */
export const toasts = () => within(screen.getByRole('region', { name: 'Notifications' }));
/** The page without the toasts (the shell's main landmark). */
export const inPage = () => within(screen.getByRole('main'));

export const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

/** The table row (or card) holding `text`. */
export function rowOf(text: string): HTMLElement {
  const cell = screen.getByText(text, { selector: 'td, .q-card__question' });
  const row = cell.closest<HTMLElement>('tr, li');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
}

/** Narrow screen: the lists render cards. Only the layout query matches (not reduced motion). */
export function narrowViewport(): () => void {
  const had = Object.prototype.hasOwnProperty.call(window, 'matchMedia');
  const original: unknown = Reflect.get(window, 'matchMedia');
  const fake = (query: string) => ({
    matches: query.includes('max-width'),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  });
  Reflect.set(window, 'matchMedia', fake);
  return () => {
    if (had) Reflect.set(window, 'matchMedia', original);
    else Reflect.deleteProperty(window, 'matchMedia');
  };
}

/** A response the test releases when it wants. */
export function deferred() {
  let resolve!: (r: Response) => void;
  const promise = new Promise<Response>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
