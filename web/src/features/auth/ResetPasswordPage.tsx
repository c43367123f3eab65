import { useId, useState, type FormEvent } from 'react';
import { Link } from '../../lib/router';
import { ErrorBanner, SuccessBanner } from '../../components/Banner';
import { errorText } from '../../lib/api';
import { useDocumentHead } from '../../lib/head';
import { requestPasswordReset } from './api';
import { AuthCard } from './AuthCard';

export default function ResetPasswordPage() {
  useDocumentHead({ title: 'Reset your password — Ques', description: 'Request a password reset link.', canonical: '/reset-password' });
  const emailId = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [success, setSuccess] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) {
      setError('Please enter your email address');
      return;
    }
    setBusy(true);
    setError('');
    setSuccess('');
    try {
      const data = await requestPasswordReset(email.trim());
      setSuccess(data?.message || 'Reset instructions sent');
    } catch (err) {
      setError(errorText(err, 'Request failed', 'Request failed. Please try again.'));
    }
    setBusy(false);
  };

  return (
    <AuthCard title="Reset your password" intro="Enter the email you signed up with and we’ll send you a reset link.">
      <form className="form" noValidate onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor={emailId} className="field__label">
            Email
          </label>
          <input id={emailId} className="input" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <ErrorBanner>{error}</ErrorBanner>
        <SuccessBanner message={success} />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Sending…' : 'Send Request'}
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
