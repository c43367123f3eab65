import { PageProblem } from '../components/PageState';
import { usePageHead } from '../lib/head';

export default function NotFoundPage() {
  usePageHead('Page not found — Ques', 'This page does not exist.', '/');
  return <PageProblem title="Page not found">The page you were looking for doesn’t exist or has moved.</PageProblem>;
}
