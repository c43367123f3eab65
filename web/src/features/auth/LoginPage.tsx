import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from '../../lib/router';
import { ErrorBanner, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { InputField } from '../../components/Field';
import { errorText } from '../../lib/api';
import { usePageHead } from '../../lib/head';
import { login } from './api';
import { useAuth } from '../../lib/auth/auth-context';
import { AuthCard, AuthSubmit, AuthSwitch } from './AuthCard';
import { nextPath, nextQuery } from './next';

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
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError('Email and password are required');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const data = await login(email.trim(), password);
      if (!data?.user || !data.accessToken) {
        setError(data?.message || 'Login failed');
        setBusy(false);
        return;
      }
      signIn(data.user, data.accessToken, data.refreshToken);
      void navigate(nextPath(location.search), { replace: true });
    } catch (err) {
      setError(errorText(err, 'Login failed', 'Login failed. Please try again.'));
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Welcome back" intro="Log in to answer your questions." showLogo>
      <SuccessBanner message={notice} />
      <form className="form" noValidate onSubmit={(e) => void submit(e)}>
        <InputField label="Email" type="email" autoComplete="email" required value={email} onChange={setEmail} />
        <InputField
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
        <ErrorBanner>{error}</ErrorBanner>
        <AuthSubmit busy={busy} label="Log In" busyLabel="Logging in…" />
      </form>
      <AuthSwitch to={`/signup${nextQuery(location.search)}`} prompt="New to Ques?">
        Create an account
      </AuthSwitch>
    </AuthCard>
  );
}
