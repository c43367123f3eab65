import { isStatusToken, STATUS_PAGE_PATH, type QuestionStatusPage } from '@ques/contracts/core';
import type { PageLoadContext } from './page-load.js';
import { notFound, statusKey, TIME_ZONE_KEY, type Loaded, type StatusRoute } from './route.js';
import { UpstreamError } from './upstream-json.js';

/*
 * The asker's private status page `/q/{token}` (issues 14, 28; docs/adr/0058): server-rendered like the public pages,
 * from the same JSON the page reads in the browser, but never cached and never indexed (the renderer and web/serve.ts
 * see to that by its kind).
 */

const STATUS_PATH = new RegExp(`^${STATUS_PAGE_PATH}([^/]+)/?$`);

/** `/q/{token}` (the web app's `q/:token` route), or null. Any token: one that is malformed gets the not-found page. */
export function matchStatusRoute(pathname: string): StatusRoute | null {
  const token = STATUS_PATH.exec(pathname)?.[1];
  return token ? { kind: 'status', token } : null;
}

/**
 * The question's status page from questions' read-only call (`GET /api/question-status/:token`, the one the page
 * polls with). Not the `confirm` call the browser makes on opening: that one may confirm a guest's address, and a
 * page GET — a link checker's, a prefetch — must change nothing; the hydrated page still makes it (ADR 0058).
 * Only the token goes upstream. Unknown or malformed: the page's own not-found, 404.
 */
export async function loadStatusPage(route: StatusRoute, ctx: PageLoadContext): Promise<Loaded> {
  if (!isStatusToken(route.token)) return notFound(route);
  if (!ctx.has('questions')) throw new UpstreamError('questions service not configured');
  const page = await ctx.get<QuestionStatusPage>(
    'questions',
    `/api/question-status/${encodeURIComponent(route.token)}`,
  );
  if (!page.body) return notFound(route);
  const values: Loaded['values'] = { [statusKey(route.token)]: { data: page.body } };
  if (route.timeZone) values[TIME_ZONE_KEY] = { data: route.timeZone };
  return { status: 200, meta: null, values, complete: true };
}
