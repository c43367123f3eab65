/**
 * Where login and signup go afterwards: `?next=` when it is a path on this site (the claim page sends people here
 * and back, issue 18), else the home page. Never another origin (`//host`, `/\host`, `https:`).
 */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

/** The `?next=` to carry over to the other auth page (login ↔ signup), or ''. */
export const nextQuery = (search: string): string => {
  const next = nextPath(search);
  return next === '/' ? '' : `?next=${encodeURIComponent(next)}`;
};
