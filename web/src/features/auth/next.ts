/**
 * Where login and signup go afterwards: `?next=` when it is a path on this site (the claim page sends people here
 * and back, issue 18), else `fallback` (the home page unless the caller says: sign-up goes on to the set-up page,
 * issue 28). Never another origin (`//host`, `/\host`, `https:`).
 */
export function nextPath(search: string, fallback = '/'): string {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  return next;
}

/** The `?next=` to carry over to the other auth page (login ↔ signup), or ''. */
export const nextQuery = (search: string): string => {
  const next = nextPath(search);
  return next === '/' ? '' : `?next=${encodeURIComponent(next)}`;
};
