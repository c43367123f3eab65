/**
 * The app's routing, in one place. History, location and navigation are react-router's (BrowserRouter,
 * MemoryRouter in tests, useLocation, useNavigate, useHref). Route matching and links are our own small
 * versions: react-router 7's `Routes` brings its ranking, error boundaries and RSC handlers, and its `Link`
 * brings framework-mode prefetching and view transitions — several kB we never use, which the public profile's
 * budget (issue 6: ≤ 90 kB gzip before interactive) cannot afford.
 *
 * Matching rules (a subset of react-router's): routes are tried in the order they are declared (put static
 * paths before dynamic ones and "*" last); `:name` is a parameter, `:name?` an optional one, a trailing `*`
 * matches the rest (which nested <Routes> then match against); a route without a path is a layout whose
 * children fill its <Outlet>; `index` matches the empty remainder. Literal segments compare case-insensitively.
 */
import {
  Children,
  createContext,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { useHref, useLocation, useNavigate, type To } from 'react-router-dom';

export { BrowserRouter, MemoryRouter, useLocation, useNavigate } from 'react-router-dom';

// ---------- Route matching ----------

export interface RouteProps {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

/** Configuration only: <Routes> reads its props. */
export function Route(_props: RouteProps): null {
  return null;
}

interface RouteConfig {
  path?: string | undefined;
  index: boolean;
  element: ReactNode;
  children: RouteConfig[];
}

export type Params = Record<string, string | undefined>;

interface Match {
  params: Params;
  /** Segments consumed by this route (before any splat). */
  consumed: number;
  /** What a trailing `*` matched, if the pattern has one. */
  splat: string | undefined;
}

interface RenderedMatch {
  route: RouteConfig;
  params: Params;
  consumed: number;
  splat: string | undefined;
}

function toConfig(children: ReactNode): RouteConfig[] {
  const routes: RouteConfig[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement(child)) return;
    const props = (child as ReactElement<RouteProps>).props;
    routes.push({
      path: props.path,
      index: Boolean(props.index),
      element: props.element ?? null,
      children: toConfig(props.children),
    });
  });
  return routes;
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/**
 * Matches a pattern against path segments. With `prefix`, the pattern may match only the first segments
 * (layouts and parents of nested routes); otherwise it must consume everything.
 */
export function matchPattern(pattern: string, segments: readonly string[], prefix = false): Match | null {
  const parts = segmentsOf(pattern);
  const params: Params = {};
  let i = 0;
  for (const part of parts) {
    if (part === '*') {
      const rest = segments.slice(i).map(decode).join('/');
      params['*'] = rest;
      return { params, consumed: i, splat: rest };
    }
    const segment = segments[i];
    if (part.startsWith(':')) {
      const optional = part.endsWith('?');
      const name = part.slice(1, optional ? -1 : undefined);
      if (segment === undefined) {
        if (optional) continue;
        return null;
      }
      params[name] = decode(segment);
      i++;
      continue;
    }
    if (segment === undefined || segment.toLowerCase() !== part.toLowerCase()) return null;
    i++;
  }
  if (!prefix && i !== segments.length) return null;
  return { params, consumed: i, splat: undefined };
}

/** The chain of routes (outermost first) that renders `segments`, or null. */
export function matchRoutes(routes: readonly RouteConfig[], segments: readonly string[]): RenderedMatch[] | null {
  for (const route of routes) {
    if (route.index) {
      if (segments.length === 0) return [{ route, params: {}, consumed: 0, splat: undefined }];
      continue;
    }
    const hasChildren = route.children.length > 0;
    const match = matchPattern(route.path ?? '', segments, hasChildren);
    if (!match) continue;
    if (!hasChildren) return [{ route, ...match }];
    const inner = matchRoutes(route.children, segments.slice(match.consumed));
    if (inner) return [{ route, ...match }, ...inner];
    // A layout or parent whose children do not match falls through to the next route.
  }
  return null;
}

interface RouteState {
  params: Params;
  /** The URL prefix the enclosing routes consumed; nested <Routes> match what follows it. */
  base: string;
  outlet: ReactNode;
}

const RouteContext = createContext<RouteState>({ params: {}, base: '/', outlet: null });

export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const parent = useContext(RouteContext);
  const routes = useMemo(() => toConfig(children), [children]);

  const baseSegments = segmentsOf(parent.base);
  const segments = segmentsOf(pathname).slice(baseSegments.length);
  const chain = matchRoutes(routes, segments);
  if (!chain) return null;

  // Build from the innermost route outwards, each element rendered with its child as the outlet.
  let outlet: ReactNode = null;
  let consumed = baseSegments.length;
  const states: RouteState[] = [];
  let params: Params = { ...parent.params };
  for (const m of chain) {
    consumed += m.consumed;
    params = { ...params, ...m.params };
    states.push({ params, base: `/${segmentsOf(pathname).slice(0, consumed).join('/')}`, outlet: null });
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const state = { ...states[i]!, outlet };
    outlet = <RouteContext.Provider value={state}>{chain[i]!.route.element}</RouteContext.Provider>;
  }
  return <>{outlet}</>;
}

/** Where a layout route renders its matched child. */
export function Outlet() {
  return <>{useContext(RouteContext).outlet}</>;
}

/** Parameters of the matched routes (`:username`, `:id`, `*` …). */
export function useParams<T extends Params = Params>(): T {
  return useContext(RouteContext).params as T;
}

// ---------- Navigation helpers ----------

/** Redirects once mounted (render-time navigation is not allowed in React). */
export function Navigate({ to, replace, state }: { to: To; replace?: boolean; state?: unknown }) {
  const navigate = useNavigate();
  const target = JSON.stringify(to);
  useEffect(() => {
    // Navigates once per target; `state` is read at that moment.
    void navigate(JSON.parse(target) as To, { replace, state });
  }, [navigate, target, replace]);
  return null;
}

type SearchParamsUpdate = URLSearchParams | ((prev: URLSearchParams) => URLSearchParams);

/** The query string as URLSearchParams, and a setter that navigates to the updated query. */
export function useSearchParams(): [
  URLSearchParams,
  (next: SearchParamsUpdate, options?: { replace?: boolean }) => void,
] {
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

// ---------- Links ----------

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** Absolute paths only (no relative resolution). */
  to: To;
  replace?: boolean;
  state?: unknown;
}

/** Plain clicks navigate inside the app; modified clicks and other targets behave like a normal link. */
export function Link({ to, replace, state, target, onClick, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useNavigate();
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
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
      }}
    />
  );
}

export interface NavLinkProps extends Omit<LinkProps, 'className' | 'to'> {
  to: string;
  /** Active only on an exact match (otherwise also for nested paths). */
  end?: boolean;
  className?: string;
}

/** A link that knows whether it points at the current page: class "active" and aria-current="page". */
export function NavLink({ to, end, className, ...rest }: NavLinkProps) {
  const { pathname } = useLocation();
  const here = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const active = here === to || (!end && here.startsWith(to.endsWith('/') ? to : `${to}/`));
  return (
    <Link
      {...rest}
      to={to}
      className={[className, active ? 'active' : ''].filter(Boolean).join(' ') || undefined}
      aria-current={active ? 'page' : undefined}
    />
  );
}
