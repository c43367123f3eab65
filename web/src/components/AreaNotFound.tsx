import { Link } from 'react-router-dom';
import { usePageHead } from '../lib/head';

/** The not-found page inside a signed-in area (admin, operator console): says so and links to the area's home. */
export function AreaNotFound({
  title,
  description,
  home,
  homeLabel,
}: {
  title: string;
  description: string;
  home: string;
  homeLabel: string;
}) {
  usePageHead(title, description, window.location.pathname);
  return (
    <section className="admin-page">
      <h1 className="admin-page__title">Not found</h1>
      <p className="empty-state">
        {description}{' '}
        <Link to={home} className="text-link">
          {homeLabel}
        </Link>
      </p>
    </section>
  );
}
