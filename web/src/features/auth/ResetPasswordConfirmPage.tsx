import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { ErrorBanner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { errorText } from '../../lib/api';
import { usePageHead } from '../../lib/head';
import { confirmPasswordReset } from './api';
import { AuthCard } from './AuthCard';

export default function ResetPasswordConfirmPage() {
  usePageHead('Choose a new password — Ques', 'Set a new password.', '/reset-password-confirm');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) {
      setError('Please enter a new password.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      await confirmPasswordReset(token, password);
      void navigate('/login', { replace: true, state: { flash: 'Your password has been reset. Please log in.' } });
    } catch (err) {
      setError(errorText(err, 'Reset failed', 'Reset failed. Please try again.'));
      setBusy(false);
    }
  };

  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <ErrorBanner>This reset link is incomplete. Please request a new one.</ErrorBanner>
        <p className="auth__switch">
          <Link to="/reset-password" className="text-link">
            Request a new reset link
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password">
      <form className="form" noValidate onSubmit={(e) => void submit(e)}>
        <Field label="New Password">
          {(field) => (
            <input
              {...field}
              className="input"
              type="password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <ErrorBanner>{error}</ErrorBanner>
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Saving…' : 'Reset Password'}
        </button>
      </form>
      <p className="auth__switch">
        <Link to="/login" className="text-link">
          Back to login
        </Link>
      </p>
    </AuthCard>
  );
}
