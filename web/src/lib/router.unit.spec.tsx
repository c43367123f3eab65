import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Link, matchPattern, MemoryRouter, Navigate, NavLink, Outlet, Route, Routes, useLocation, useParams, useSearchParams } from './router';

describe('matchPattern', () => {
  it('matches literals case-insensitively and reads parameters', () => {
    expect(matchPattern('ask/:username', ['ASK', 'ada'])?.params).toEqual({ username: 'ada' });
    expect(matchPattern('ask/:username', ['ask'])).toBeNull();
    expect(matchPattern('ask/:username', ['ask', 'ada', 'extra'])).toBeNull();
  });

  it('treats `:name?` as optional', () => {
    const pattern = 'ask/:username/question/:id/:slug?';
    expect(matchPattern(pattern, ['ask', 'ada', 'question', 'q1'])?.params).toEqual({ username: 'ada', id: 'q1' });
    expect(matchPattern(pattern, ['ask', 'ada', 'question', 'q1', 'is-it-free'])?.params).toEqual({
      username: 'ada',
      id: 'q1',
      slug: 'is-it-free',
    });
  });

  it('decodes parameters', () => {
    expect(matchPattern(':name', ['a%20b'])?.params).toEqual({ name: 'a b' });
  });

  it('lets a trailing * take the rest', () => {
    expect(matchPattern('admin/*', ['admin', 'account-settings'])).toMatchObject({ consumed: 1, splat: 'account-settings' });
    expect(matchPattern('admin/*', ['admin'])).toMatchObject({ consumed: 1, splat: '' });
  });
});

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{pathname + search}</p>;
}

function Layout() {
  return (
    <div data-testid="layout">
      <Outlet />
    </div>
  );
}

function Profile() {
  const { username } = useParams();
  return <h1>profile {username}</h1>;
}

function Admin() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<h1>inbox</h1>} />
        <Route path="account-settings" element={<h1>account</h1>} />
        <Route path="*" element={<h1>admin missing</h1>} />
      </Route>
    </Routes>
  );
}

function Tagged() {
  const [params, setParams] = useSearchParams();
  return (
    <button type="button" onClick={() => setParams(new URLSearchParams({ tag: 'career' }), { replace: true })}>
      tag={params.get('tag') ?? 'none'}
    </button>
  );
}

const app = (
  <>
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<h1>home</h1>} />
        <Route path="ask/:username" element={<Profile />} />
        <Route path="tagged" element={<Tagged />} />
        <Route path="old" element={<Navigate to="/ask/ada" replace />} />
        <Route path="admin/*" element={<Admin />} />
        <Route path="*" element={<h1>not found</h1>} />
      </Route>
    </Routes>
    <nav>
      <Link to="/ask/grace">grace</Link>
      <NavLink to="/admin" end>
        admin
      </NavLink>
    </nav>
    <Where />
  </>
);

const at = (path: string) => render(<MemoryRouter initialEntries={[path]}>{app}</MemoryRouter>);

describe('<Routes>', () => {
  it('renders the index route inside its layout', () => {
    at('/');
    expect(screen.getByTestId('layout')).toContainElement(screen.getByRole('heading', { name: 'home' }));
  });

  it('passes route parameters', () => {
    at('/ask/ada');
    expect(screen.getByRole('heading', { name: 'profile ada' })).toBeInTheDocument();
  });

  it('matches nested <Routes> against what the splat left', () => {
    at('/admin/account-settings');
    expect(screen.getByRole('heading', { name: 'account' })).toBeInTheDocument();
  });

  it('renders the nested index and the nested catch-all', () => {
    const { unmount } = at('/admin');
    expect(screen.getByRole('heading', { name: 'inbox' })).toBeInTheDocument();
    unmount();
    at('/admin/nope');
    expect(screen.getByRole('heading', { name: 'admin missing' })).toBeInTheDocument();
  });

  it('falls back to the catch-all', () => {
    at('/somewhere/else');
    expect(screen.getByRole('heading', { name: 'not found' })).toBeInTheDocument();
  });

  it('redirects with <Navigate>', async () => {
    at('/old');
    expect(await screen.findByRole('heading', { name: 'profile ada' })).toBeInTheDocument();
  });
});

describe('links and search params', () => {
  it('navigates in-app on a plain click', async () => {
    const user = userEvent.setup();
    at('/');
    const link = screen.getByRole('link', { name: 'grace' });
    expect(link).toHaveAttribute('href', '/ask/grace');
    await user.click(link);
    expect(screen.getByRole('heading', { name: 'profile grace' })).toBeInTheDocument();
  });

  it('marks the current page on a NavLink', () => {
    at('/admin');
    expect(screen.getByRole('link', { name: 'admin' })).toHaveAttribute('aria-current', 'page');
  });

  it('does not mark an `end` NavLink on nested pages', () => {
    at('/admin/account-settings');
    expect(screen.getByRole('link', { name: 'admin' })).not.toHaveAttribute('aria-current');
  });

  it('updates the query string', async () => {
    const user = userEvent.setup();
    at('/tagged');
    await user.click(screen.getByRole('button', { name: 'tag=none' }));
    expect(screen.getByRole('button', { name: 'tag=career' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/tagged?tag=career');
  });
});
