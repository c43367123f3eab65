import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LoadingText } from './Banner';

/** A narrow page whose data is still on its way. */
export function PageLoading() {
  return (
    <section className="page page--narrow">
      <LoadingText>Loading</LoadingText>
    </section>
  );
}

/** A narrow page that cannot show what was asked for: its title, why, and the way to the home page. */
export function PageProblem({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="page page--narrow">
      <h1 className="page__title">{title}</h1>
      <p>{children}</p>
      <p>
        <Link to="/" className="button button--primary">
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
