import { usePageHead } from '../lib/head';
import { PageProblem } from './PageState';

/**
 * The designed not-found page (product-polish "Public pages"): the app's unknown addresses, and a profile or answer
 * that does not exist or is not public — then with a 404 from the server render too (bff/src/seo/not-found.ts).
 */
export function NotFound() {
  usePageHead('Page not found — Ques', 'This page does not exist.', '/');
  return <PageProblem title="Page not found">The page you were looking for doesn’t exist or has moved.</PageProblem>;
}
