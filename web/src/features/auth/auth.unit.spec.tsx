import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_REFRESHED_EVENT } from '../../lib/api';
import { useLocation } from 'react-router-dom';
import { renderAppAt } from '../../test/render-app';
import { json, mockFetch } from '../../test/fetch-mock';
import { errorOf } from '../../test/field-error';

vi.mock('../../lib/browser', () => ({ leaveTo: vi.fn() }));
const { leaveTo } = await import('../../lib/browser');

const user = {
  _id: 'u1',
  id: 'u1',
  username: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  bio: '',
  avatarUrl: '/images/user-image.png',
  brandColorMain: '#2F4A3A',
  brandColorLight: '#F4F1EA',
};

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function Where() {
  const { pathname } = useLocation();
  return <output data-testid="where">{pathname}</output>;
}

function renderApp(path: string, routes: Parameters<typeof mockFetch>[0] = {}) {
  const mock = mockFetch({
    'GET /api/users/profile': () => json(user),
    'POST /api/users/logout': () => json({}),
    'GET /api/questions': () => json([]),
    'GET /api/users/public/ada': () => json(user),
    ...routes,
  });
  restore = mock.restore;
  renderAppAt(path, <Where />);
  return mock;
}

const where = () => screen.getByTestId('where').textContent;

describe('auth state (spec §3, §4)', () => {
  it('sends a logged-out visitor from /admin to /login', async () => {
    renderApp('/admin/account-settings');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(where()).toBe('/login');
  });

  it('hides the header on /login and shows "Sign Up" elsewhere when logged out', async () => {
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });

  const checklist = (done: boolean, dismissed: boolean) => () =>
    json({ username: 'ada', steps: {}, done, dismissed });

  it('logs in: stores tokens and user data, then goes to the set-up page while it is not done (issue 28)', async () => {
    const u = userEvent.setup();
    const mock = renderApp('/login', {
      'POST /api/users/login': () =>
        json({ message: 'ok', user: { ...user, username: '' }, accessToken: 'A1', refreshToken: 'R1' }),
      'GET /api/users/onboarding': checklist(false, false),
    });
    await u.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await u.type(screen.getByLabelText('Password'), 'secret pass');
    await u.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(where()).toBe('/admin/setup'));
    expect(mock.calls.find((c) => c.url === '/api/users/login')?.body).toEqual({
      email: 'ada@example.com',
      password: 'secret pass',
    });
    expect(localStorage.getItem('accessToken')).toBe('A1');
    expect(localStorage.getItem('refreshToken')).toBe('R1');
    // A user stored without a username gets one derived from the name (spec §3).
    expect(JSON.parse(localStorage.getItem('userData') ?? '{}')).toMatchObject({ name: 'Ada Lovelace', username: 'ada-lovelace' });
    expect(localStorage.getItem('username')).toBe('ada-lovelace');
  });

  it('login: both errors at once under their fields; typing the e-mail clears its error alone (issue 28)', async () => {
    const u = userEvent.setup();
    const mock = renderApp('/login');
    const email = await screen.findByLabelText('Email');
    const password = screen.getByLabelText('Password');
    await u.click(screen.getByRole('button', { name: 'Log In' }));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(errorOf(email)).toBe('Email is required');
    expect(errorOf(password)).toBe('Password is required');
    expect(screen.getByText('Please correct the 2 highlighted fields.')).toBeInTheDocument();
    expect(email).toHaveFocus();

    await u.type(email, 'a');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(errorOf(email)).toBeNull();
    expect(screen.queryByText('Email is required')).toBeNull();
    expect(errorOf(password)).toBe('Password is required');
    expect(screen.getByText('Please correct the highlighted field.')).toBeInTheDocument();
    expect(mock.calls.some((c) => c.url === '/api/users/login')).toBe(false);
  });

  it('after login: the questions once the checklist is done or dismissed; a ?next= page always comes first', async () => {
    const login = () => json({ message: 'ok', user, accessToken: 'A1', refreshToken: 'R1' });
    for (const [start, list, expected] of [
      ['/login', checklist(true, false), '/admin'],
      ['/login', checklist(false, true), '/admin'],
      ['/login?next=%2Fclaim%2Fhedy', checklist(false, false), '/claim/hedy'],
    ] as const) {
      const u = userEvent.setup();
      renderApp(start, { 'POST /api/users/login': login, 'GET /api/users/onboarding': list });
      await u.type(await screen.findByLabelText('Email'), 'ada@example.com');
      await u.type(screen.getByLabelText('Password'), 'secret pass');
      await u.click(screen.getByRole('button', { name: 'Log In' }));
      await waitFor(() => expect(where()).toBe(expected));
      cleanup();
      restore?.();
      localStorage.clear();
    }
  });

  it('shows the server message when login fails, else "Login failed"', async () => {
    const u = userEvent.setup();
    renderApp('/login', {
      'POST /api/users/login': () => json({ message: 'Invalid email or password' }, { status: 401 }),
    });
    await u.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await u.type(screen.getByLabelText('Password'), 'wrong');
    await u.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('says "Login failed. Please try again." when the request cannot be sent', async () => {
    const u = userEvent.setup();
    renderApp('/login', {
      'POST /api/users/login': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await u.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await u.type(screen.getByLabelText('Password'), 'x');
    await u.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed. Please try again.');
  });

  it('signup needs the terms checkbox; the legal links open in new tabs', async () => {
    const u = userEvent.setup();
    const mock = renderApp('/signup', {
      'POST /api/users': () => json({ user, token: 'A1', refreshToken: 'R1', message: 'created' }, { status: 201 }),
    });
    await u.type(await screen.findByLabelText('Name'), 'Ada Lovelace');
    await u.type(screen.getByLabelText('Email'), 'ada@example.com');
    await u.type(screen.getByLabelText('Password'), 'a long password');
    const agreement = screen.getByRole('checkbox').closest('label')!;
    for (const name of ['Terms of Use', 'Privacy Policy']) {
      const link = within(agreement).getByRole('link', { name });
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('href', name === 'Terms of Use' ? '/terms-of-use' : '/privacy-policy');
    }
    await u.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(mock.calls.some((c) => c.url === '/api/users')).toBe(false);

    await u.click(screen.getByRole('checkbox'));
    await u.click(screen.getByRole('button', { name: 'Sign Up' }));
    // Issue 28: a new owner goes on to the set-up page.
    await waitFor(() => expect(where()).toBe('/admin/setup'));
    expect(localStorage.getItem('accessToken')).toBe('A1');
  });

  it('on start-up with a token, fetches the profile and shows the avatar menu', async () => {
    localStorage.setItem('accessToken', 'A1');
    const mock = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Open menu' })).toBeInTheDocument();
    expect(mock.calls.find((c) => c.url === '/api/users/profile')?.headers.Authorization).toBe('Bearer A1');
    expect(screen.queryByRole('link', { name: 'Sign Up' })).not.toBeInTheDocument();
  });

  it('refetches the profile when the token was refreshed', async () => {
    localStorage.setItem('accessToken', 'A1');
    const mock = renderApp('/');
    await screen.findByRole('button', { name: 'Open menu' });
    const before = mock.calls.filter((c) => c.url === '/api/users/profile').length;
    act(() => {
      window.dispatchEvent(new Event(TOKEN_REFRESHED_EVENT));
    });
    await waitFor(() => expect(mock.calls.filter((c) => c.url === '/api/users/profile').length).toBe(before + 1));
  });

  it('logout clears the access token and user data, keeps the refresh token, and goes to /login', async () => {
    const u = userEvent.setup();
    localStorage.setItem('accessToken', 'A1');
    localStorage.setItem('refreshToken', 'R1');
    renderApp('/');
    await u.click(await screen.findByRole('button', { name: 'Open menu' }));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'Manage Questions', 'Account Settings']) {
      expect(nav).toContainElement(screen.getByRole('link', { name }));
    }
    await u.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('/login'));
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('userData')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBe('R1');
  });
});
