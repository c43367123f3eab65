import type { PageMeta } from '@ques/contracts/core';

/*
 * Which public page a path names, and what a page whose person or answer does not exist gets (issue 28): HTTP 404
 * and the web app's designed not-found page — server-rendered from page data whose value for the page says 404
 * (web/src/lib/ssr.tsx `{ error, status: 404 }`), the same data the browser hydrates from, so it shows the same page.
 */

export type SeoRoute =
  { kind: 'profile'; username: string } | { kind: 'question'; username: string; id: string };
/** The asker's private status page (status-page.ts): rendered the same way, never cached. */
/** `timeZone`: the viewer's, from the `ques_tz` cookie, when the request carried one (the page renders in it). */
export type StatusRoute = { kind: 'status'; token: string; timeZone?: string };
export type PageRoute = SeoRoute | StatusRoute;

/** What the renderer loaded for a page (SeoRenderer.load). */
export interface Loaded {
  status: 200 | 404 | 'unavailable' | 'moved';
  /** `moved`: the owner's current handle (identity answered the profile of a handle renamed away, issue 28). */
  movedTo?: string;
  /** The metadata computed from the data (the crawler tags without a server render). */
  meta: PageMeta | null;
  /** The page data the web app renders and hydrates from (web/src/lib/ssr.tsx `values`). */
  values: Record<string, { data: unknown } | { error: string; status?: 404 }>;
  /** Everything the page shows was loaded (worth caching; the app need not fetch anything). */
  complete: boolean;
  /** The owner's user id (evicted by id when identity or questions publish a change). */
  ownerId?: string;
  /** The questions the page shows. */
  questionIds?: string[];
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/**
 * `/ask/:username` and `/ask/:username/question/:id/:slug?` (same shapes as the web app's routes), null for any other
 * path; `'not-found'` for one of those shapes the app cannot even read (an undecodable or overlong name or id). An id
 * that is no UUID is a question route all the same: its page is the not-found page (`notFound`).
 */
export function matchSeoRoute(pathname: string): SeoRoute | 'not-found' | null {
  const match = /^\/ask\/([^/]+)(?:\/question\/([^/]+)(?:\/[^/]+)?)?\/?$/i.exec(pathname);
  if (!match) return null;
  const username = decode(match[1]!)?.trim().toLowerCase();
  if (!username || username.length > 100) return 'not-found';
  if (match[2] === undefined) return { kind: 'profile', username };
  const id = decode(match[2])?.toLowerCase();
  return id && id.length <= 100 ? { kind: 'question', username, id } : 'not-found';
}

/** The status page's data key (web/src/lib/ssr.tsx `pageDataKeys.status`): the token as it is, case and all. */
export const statusKey = (token: string) => `status:${token}`;
/** The page data's key for the zone the status page was rendered in (web/src/lib/ssr.tsx `pageDataKeys.zone`). */
export const TIME_ZONE_KEY = 'zone';

/** The message a not-found value carries (the app shows its designed page, never this text). */
export const NOT_FOUND_MESSAGE = 'Not found';

/**
 * The one not-found answer of the rendered pages: the profile `route` names has no such person, the answer is
 * unknown, someone else's or not public, or no question has that status link. 404, kept for the renderer's not-found
 * time (a status page is never kept), the app's not-found page.
 * A check that turns a missing page into something else (a renamed handle's 301) belongs before this call.
 */
export function notFound(route: PageRoute, ownerId?: string): Loaded {
  const key =
    route.kind === 'profile'
      ? `profile:${route.username}`
      : route.kind === 'question'
        ? `answer:${route.id}`
        : statusKey(route.token);
  return {
    status: 404,
    meta: null,
    values: { [key]: { error: NOT_FOUND_MESSAGE, status: 404 } },
    complete: true,
    ...(ownerId ? { ownerId } : {}),
  };
}
