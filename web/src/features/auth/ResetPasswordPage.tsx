import { useState } from 'react';
import { ErrorBanner, SuccessBanner } from '../../components/Banner';
import { InputField } from '../../components/Field';
import { usePageHead } from '../../lib/head';
import { useSubmit } from '../../components/use-submit';
import { useFieldErrors } from '../../components/use-field-errors';
import { ErrorSummary } from '../../components/ErrorSummary';
import { requestPasswordReset } from './api';
import { AuthCard, AuthSubmit, AuthSwitch } from './AuthCard';

export default function ResetPasswordPage() {
  usePageHead('Reset your password — Ques', 'Request a password reset link.', '/reset-password');
  const [email, setEmail] = useState('');
  const [success, setSuccess] = useState('');
  const form = useFieldErrors(() => ({ email: email.trim() ? undefined : 'Please enter your email address' }));
  const { error, busy, onSubmit } = useSubmit({
    fields: form,
    run: async () => {
      setSuccess('');
      const data = await requestPasswordReset(email.trim());
      setSuccess(data?.message || 'Reset instructions sent');
    },
    failed: 'Request failed',
    unreachable: 'Request failed. Please try again.',
  });

  return (
    <AuthCard title="Reset your password" intro="Enter the email you signed up with and we’ll send you a reset link.">
      <form className="form" noValidate onSubmit={onSubmit}>
        <InputField {...form.field('email')} label="Email" type="email" autoComplete="email" required value={email} onChange={setEmail} />
        <ErrorSummary count={form.count} />
        <ErrorBanner>{error}</ErrorBanner>
        <SuccessBanner message={success} />
        <AuthSubmit busy={busy} label="Send Request" busyLabel="Sending…" />
      </form>
      <AuthSwitch to="/login">Back to login</AuthSwitch>
    </AuthCard>
  );
}
