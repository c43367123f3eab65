import { useDocumentHead } from '../../lib/head';

/** Placeholder for the admin screens built in part 2. */
export function ComingSoon({ title }: { title: string }) {
  useDocumentHead({ title: `${title} — Ques`, description: title, canonical: window.location.pathname });
  return (
    <section className="admin-page">
      <h1 className="admin-page__title">{title}</h1>
      <p className="empty-state">This screen is on its way.</p>
    </section>
  );
}
