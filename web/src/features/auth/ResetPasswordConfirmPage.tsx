import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ErrorBanner } from '../../components/Banner';
import { InputField } from '../../components/Field';
import { usePageHead } from '../../lib/head';
import { useSubmit } from '../../components/use-submit';
import { useFieldErrors } from '../../components/use-field-errors';
import { ErrorSummary } from '../../components/ErrorSummary';
import { confirmPasswordReset } from './api';
import { AuthCard, AuthSubmit, AuthSwitch } from './AuthCard';

export default function ResetPasswordConfirmPage() {
  usePageHead('Choose a new password — Ques', 'Set a new password.', '/reset-password-confirm');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const form = useFieldErrors(() => ({ password: password ? undefined : 'Please enter a new password.' }));
  const { error, busy, onSubmit } = useSubmit({
    fields: form,
    run: async () => {
      await confirmPasswordReset(token, password);
      void navigate('/login', { replace: true, state: { flash: 'Your password has been reset. Please log in.' } });
    },
    failed: 'Reset failed',
    unreachable: 'Reset failed. Please try again.',
    leaves: true,
  });

  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <ErrorBanner>This reset link is incomplete. Please request a new one.</ErrorBanner>
        <AuthSwitch to="/reset-password">Request a new reset link</AuthSwitch>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password">
      <form className="form" noValidate onSubmit={onSubmit}>
        <InputField {...form.field('password')} label="New Password" type="password" autoComplete="new-password" required value={password} onChange={setPassword} />
        <ErrorSummary count={form.count} />
        <ErrorBanner>{error}</ErrorBanner>
        <AuthSubmit busy={busy} label="Reset Password" busyLabel="Saving…" />
      </form>
      <AuthSwitch to="/login">Back to login</AuthSwitch>
    </AuthCard>
  );
}
