import { Link } from '../lib/router';
import { usePageHead } from '../lib/head';

export default function NotFoundPage() {
  usePageHead('Page not found — Ques', 'This page does not exist.', '/');
  return (
    <section className="page page--narrow">
      <h1 className="page__title">Page not found</h1>
      <p>The page you were looking for doesn’t exist or has moved.</p>
      <p>
        <Link to="/" className="button button--primary">
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
