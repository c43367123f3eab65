/**
 * The app's routing imports, in one place. Routing itself is react-router's (BrowserRouter, Routes, hooks);
 * `Link`, `NavLink`, `Navigate` and `useSearchParams` are small versions of our own: react-router 7's carry
 * framework-mode prefetching, view transitions and form helpers we never use, which cost several kB of the
 * public profile's JavaScript budget (issue 6: ≤ 90 kB gzip before interactive).
 */
import { useCallback, useEffect, useMemo, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { useHref, useLocation, useNavigate, useResolvedPath, type To } from 'react-router-dom';

export { BrowserRouter, MemoryRouter, Outlet, Route, Routes, useLocation, useNavigate, useParams } from 'react-router-dom';

/** Redirects once mounted (render-time navigation is not allowed in React). */
export function Navigate({ to, replace, state }: { to: To; replace?: boolean; state?: unknown }) {
  const navigate = useNavigate();
  const target = JSON.stringify(to);
  useEffect(() => {
    void navigate(JSON.parse(target) as To, { replace, state });
    // Navigates once per target; `state` is read at that moment.
  }, [navigate, target, replace]);
  return null;
}

type SearchParamsUpdate = URLSearchParams | ((prev: URLSearchParams) => URLSearchParams);

/** The query string as URLSearchParams, and a setter that navigates to the updated query. */
export function useSearchParams(): [URLSearchParams, (next: SearchParamsUpdate, options?: { replace?: boolean }) => void] {
  const { search, pathname, hash } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback(
    (next: SearchParamsUpdate, options?: { replace?: boolean }) => {
      const value = typeof next === 'function' ? next(new URLSearchParams(search)) : next;
      const qs = value.toString();
      void navigate({ pathname, search: qs ? `?${qs}` : '', hash }, { replace: options?.replace });
    },
    [navigate, pathname, search, hash],
  );
  return [params, set];
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  state?: unknown;
}

/** Plain clicks navigate inside the app; modified clicks and other targets behave like a normal link. */
function useClickHandler(to: To, replace: boolean | undefined, state: unknown, target: string | undefined) {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      (target && target !== '_self') ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey
    ) {
      return;
    }
    event.preventDefault();
    void navigate(to, { replace, state });
  };
}

export function Link({ to, replace, state, target, onClick, ...rest }: LinkProps) {
  const href = useHref(to);
  const handle = useClickHandler(to, replace, state, target);
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        handle(event);
      }}
    />
  );
}

export interface NavLinkProps extends Omit<LinkProps, 'className' | 'children'> {
  /** Active only on an exact match (otherwise also for nested paths). */
  end?: boolean;
  className?: string;
  children?: ReactNode;
}

/** A link that knows whether it points at the current page: class "active" and aria-current="page". */
export function NavLink({ to, end, className, ...rest }: NavLinkProps) {
  const { pathname } = useLocation();
  const target = useResolvedPath(to).pathname;
  const here = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const active = here === target || (!end && here.startsWith(target.endsWith('/') ? target : `${target}/`));
  return (
    <Link
      {...rest}
      to={to}
      className={[className, active ? 'active' : ''].filter(Boolean).join(' ') || undefined}
      aria-current={active ? 'page' : undefined}
    />
  );
}
