import { useState, type FormEvent } from 'react';
import { ErrorBanner, SuccessBanner } from '../../components/Banner';
import { InputField } from '../../components/Field';
import { errorText } from '../../lib/api';
import { usePageHead } from '../../lib/head';
import { requestPasswordReset } from './api';
import { AuthCard, AuthSubmit, AuthSwitch } from './AuthCard';

export default function ResetPasswordPage() {
  usePageHead('Reset your password — Ques', 'Request a password reset link.', '/reset-password');
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
        <InputField label="Email" type="email" autoComplete="email" required value={email} onChange={setEmail} />
        <ErrorBanner>{error}</ErrorBanner>
        <SuccessBanner message={success} />
        <AuthSubmit busy={busy} label="Send Request" busyLabel="Sending…" />
      </form>
      <AuthSwitch to="/login">Back to login</AuthSwitch>
    </AuthCard>
  );
}
