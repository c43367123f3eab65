import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { usePageHead } from '../../lib/head';
import './legal.css';

export const EFFECTIVE_DATE = 'March 11, 2025';

interface LegalPageProps {
  title: string;
  description: string;
  path: string;
  children: ReactNode;
}

export function LegalPage({ title, description, path, children }: LegalPageProps) {
  usePageHead(`${title} — Ques`, description, path);
  return (
    <article className="legal">
      <header className="legal__header">
        <p className="eyebrow">Legal</p>
        <h1 className="legal__title">{title}</h1>
        <p className="legal__effective">Effective {EFFECTIVE_DATE}</p>
      </header>
      <div className="legal__body">{children}</div>
      <footer className="legal__footer">
        <Link to="/terms-of-use">Terms of Use</Link>
        <Link to="/privacy-policy">Privacy Policy</Link>
        <Link to="/">Home</Link>
      </footer>
    </article>
  );
}
