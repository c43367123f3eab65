import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
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

/** The form's submit button: it says what is happening while the request runs. */
export function AuthSubmit({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="button button--primary button--block" disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}

/** The link under the card to another auth page ("New to Ques? Create an account", "Back to login"). */
export function AuthSwitch({ to, children, prompt }: { to: string; children: ReactNode; prompt?: string }) {
  return (
    <p className="auth__switch">
      {prompt ? `${prompt} ` : null}
      <Link to={to} className="text-link">
        {children}
      </Link>
    </p>
  );
}
