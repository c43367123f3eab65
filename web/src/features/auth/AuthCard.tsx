import type { ReactNode } from 'react';
import { Link } from '../../lib/router';
import { Logo } from '../../components/Logo';
import './auth.css';

/** Centered card used by the login, signup and password pages. */
export function AuthCard({ title, intro, children, showLogo }: { title: string; intro?: ReactNode; children: ReactNode; showLogo?: boolean }) {
  return (
    <section className="auth">
      <div className="auth__card">
        {showLogo ? (
          <Link to="/" className="auth__logo" aria-label="Ques home">
            <Logo />
          </Link>
        ) : null}
        <h1 className="auth__title">{title}</h1>
        {intro ? <p className="auth__intro">{intro}</p> : null}
        {children}
      </div>
    </section>
  );
}
