import { useEffect, useState } from 'react';
import { ONBOARDING_PATH } from '@ques/contracts/core';
import { ErrorBanner, LoadingText } from '../../components/Banner';
import { errorText } from '../../lib/api';
import { useAuth } from '../../lib/auth/auth-context';
import { usePageHead } from '../../lib/head';
import { useSearchParams } from 'react-router-dom';
import { verifyEmail } from './api';
import { AuthCard, AuthSwitch } from './AuthCard';

export const VERIFY_FAILED = "We couldn't verify your email address. Please try again.";
export const VERIFY_INCOMPLETE = 'This verification link is incomplete. Open the link from the email again, or send a new one from Account Settings.';

// One attempt per token, however often the page renders (a link is single use: a second call would fail).
const attempts = new Map<string, Promise<string>>();
const attempt = (token: string) => {
  let pending = attempts.get(token);
  if (!pending) {
    pending = verifyEmail(token).then((res) => res.message ?? 'Your email address is verified.');
    attempts.set(token, pending);
  }
  return pending;
};

type State = { kind: 'verifying' } | { kind: 'verified'; message: string } | { kind: 'failed'; message: string };

/** `/verify-email?token=…`: the link identity mails at signup and on a change of address (ADR 0021). */
export default function VerifyEmailPage() {
  usePageHead('Verify your email — Ques', 'Confirm your email address.', '/verify-email');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { user, updateUser } = useAuth();
  const [state, setState] = useState<State>({ kind: 'verifying' });

  useEffect(() => {
    if (!token) return;
    let live = true;
    attempt(token).then(
      (message) => live && setState({ kind: 'verified', message }),
      (err: unknown) => live && setState({ kind: 'failed', message: errorText(err, VERIFY_FAILED, VERIFY_FAILED) }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  // A signed-in tab shows the notice gone at once (the link proves the address the account has now).
  useEffect(() => {
    if (state.kind === 'verified' && user && user.emailVerified === false) updateUser({ ...user, emailVerified: true });
  }, [state.kind, user, updateUser]);

  if (!token) {
    return (
      <AuthCard title="Verify your email">
        <ErrorBanner>{VERIFY_INCOMPLETE}</ErrorBanner>
        <AuthSwitch to="/admin/account-settings">Go to Account Settings</AuthSwitch>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Verify your email">
      {state.kind === 'verifying' ? <LoadingText>Verifying your email address…</LoadingText> : null}
      {state.kind === 'verified' ? (
        <p role="status">
          {state.message} Questions you asked as a guest with this address now show in your account, and notifications
          will be sent to it.
        </p>
      ) : null}
      {state.kind === 'failed' ? <ErrorBanner>{state.message}</ErrorBanner> : null}
      {/* Issue 28: a verified address continues the set-up path; a failed link's way on is Account Settings (resend). */}
      {state.kind === 'verified' ? (
        <AuthSwitch to={user ? ONBOARDING_PATH : `/login?next=${encodeURIComponent(ONBOARDING_PATH)}`}>
          {user ? 'Continue setting up your page' : 'Log in to set up your page'}
        </AuthSwitch>
      ) : null}
      {state.kind === 'failed' ? (
        <AuthSwitch to={user ? '/admin/account-settings' : '/login'}>{user ? 'Go to Account Settings' : 'Log in'}</AuthSwitch>
      ) : null}
    </AuthCard>
  );
}
