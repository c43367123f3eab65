/** Test helpers for the admin screens (never imported by the app). */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../app/App';
import { MemoryRouter } from '../../lib/router';
import { json, mockFetch } from '../../test/fetch-mock';
import type { AdminQuestion } from './api';

export const me = {
  _id: 'u1',
  id: 'u1',
  username: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  bio: '',
  avatarUrl: '/images/user-image.png',
  brandColorMain: '#1A140F',
  brandColorLight: '#FAF6F2',
  archiveProfile: false,
};

export const DAY = 24 * 60 * 60 * 1000;

export function question(overrides: Partial<AdminQuestion> & { _id: string; question: string }): AdminQuestion {
  return {
    id: overrides._id,
    toUsername: 'ada',
    recipientName: 'Ada Lovelace',
    fromUsername: 'guest',
    askedName: 'Someone',
    askedEmail: 'someone@example.com',
    createdAt: '2025-03-01T12:00:00.000Z',
    status: 'Pending',
    answer: '',
    tags: [],
    tip: 0,
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

/** Renders the whole app at `path` for the signed-in owner. */
export function renderAdmin(path: string, routes: Routes, profile: Partial<typeof me> = {}) {
  localStorage.setItem('accessToken', 'A1');
  const mock = mockFetch({ 'GET /api/users/profile': () => json({ ...me, ...profile }), ...routes });
  render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );
  return { mock, user: userEvent.setup() };
}

/** The table's body rows. */
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
