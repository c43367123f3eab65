import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ErrorBanner, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { InputField } from '../../components/Field';
import { usePageHead } from '../../lib/head';
import { useSubmit } from '../../components/use-submit';
import { useFieldErrors } from '../../components/use-field-errors';
import { ErrorSummary } from '../../components/ErrorSummary';
import { login } from './api';
import { useAuth } from '../../lib/auth/auth-context';
import { AuthCard, AuthSubmit, AuthSwitch } from './AuthCard';
import { landingAfterSignIn } from '../../lib/onboarding';
import { nextPath, nextQuery } from './next';

/** Each field's own message (issue 28: shown together, each under its field). */
export const LOGIN_MESSAGES = { email: 'Email is required', password: 'Password is required' } as const;

export default function LoginPage() {
  usePageHead('Log in — Ques', 'Log in to answer your questions on Ques.', '/login');
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const flash = (location.state as { flash?: string } | null)?.flash ?? '';
  const [notice, showNotice] = useSuccessMessage();
  useEffect(() => {
    if (flash) showNotice(flash);
  }, [flash, showNotice]);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFieldErrors(() => ({
    email: email.trim() ? undefined : LOGIN_MESSAGES.email,
    password: password ? undefined : LOGIN_MESSAGES.password,
  }));
  const { error, busy, onSubmit } = useSubmit({
    fields: form,
    run: async () => {
      const data = await login(email.trim(), password);
      if (!data?.user || !data.accessToken) return data?.message || 'Login failed';
      signIn(data.user, data.accessToken, data.refreshToken);
      // Issue 28: a page asked for (`?next=`) comes first; else the set-up page until its checklist is done or
      // dismissed, then the owner's questions.
      const next = nextPath(location.search, '');
      void navigate(next || (await landingAfterSignIn('/admin')), { replace: true });
    },
    failed: 'Login failed',
    unreachable: 'Login failed. Please try again.',
    leaves: true,
  });

  return (
    <AuthCard title="Welcome back" intro="Log in to answer your questions." showLogo>
      <SuccessBanner message={notice} />
      <form className="form" noValidate onSubmit={onSubmit}>
        <InputField {...form.field('email')} label="Email" type="email" autoComplete="email" required value={email} onChange={setEmail} />
        <InputField
          {...form.field('password')}
          label="Password"
          labelAside={
            <Link to="/reset-password" className="text-link text-link--small">
              I don't remember
            </Link>
          }
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={setPassword}
        />
        <ErrorSummary count={form.count} />
        <ErrorBanner>{error}</ErrorBanner>
        <AuthSubmit busy={busy} label="Log In" busyLabel="Logging in…" />
      </form>
      <AuthSwitch to={`/signup${nextQuery(location.search)}`} prompt="New to Ques?">
        Create an account
      </AuthSwitch>
    </AuthCard>
  );
}
