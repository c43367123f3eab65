import { useState } from 'react';
import { useLocation, useNavigate } from '../../lib/router';
import { ErrorBanner } from '../../components/Banner';
import { Checkbox, InputField, TermsLinks } from '../../components/Field';
import type { User } from '@ques/contracts/core';
import { usePageHead } from '../../lib/head';
import { useSubmit } from '../../components/use-submit';
import { signup } from './api';
import { useAuth } from '../../lib/auth/auth-context';
import { AuthCard, AuthSubmit, AuthSwitch } from './AuthCard';
import { nextPath, nextQuery } from './next';

export default function SignupPage() {
  usePageHead('Sign up — Ques', 'Create your Ques page: answer questions once, publish the answers, get tipped for your expertise.', '/signup');
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const { error, busy, onSubmit } = useSubmit({
    check: () =>
      !name.trim() || !email.trim() || !password
        ? 'Name, email and password are required'
        : !agreed
          ? 'Please agree to the Terms of Use and Privacy Policy to sign up'
          : '',
    run: async () => {
      const data = await signup(name.trim(), email.trim(), password);
      // Spec §3: the user comes as `user`, or the body itself is the user.
      const user = (data.user ?? data) as User;
      const accessToken = data.token ?? data.accessToken;
      if (!user || typeof user.name !== 'string') return data.message || 'Signup failed';
      if (!accessToken) console.warn('Signup response carried no token'); // spec §8: only logged
      signIn(user, accessToken, data.refreshToken);
      void navigate(nextPath(location.search, '/admin/setup'), { replace: true });
    },
    failed: 'Signup failed',
    unreachable: 'Signup failed. Please try again.',
    leaves: true,
  });

  return (
    <AuthCard title="Create your Ques page" intro="Answer once, publish it, and let people tip you for what you know.">
      <form className="form" noValidate onSubmit={onSubmit}>
        <InputField label="Name" type="text" autoComplete="name" required value={name} onChange={setName} />
        <InputField label="Email" type="email" autoComplete="email" required value={email} onChange={setEmail} />
        <InputField label="Password" type="password" autoComplete="new-password" required value={password} onChange={setPassword} />
        <Checkbox checked={agreed} onChange={setAgreed} required>
          I agree to <TermsLinks />.
        </Checkbox>
        <ErrorBanner>{error}</ErrorBanner>
        <AuthSubmit busy={busy} label="Sign Up" busyLabel="Creating your account…" />
      </form>
      <AuthSwitch to={`/login${nextQuery(location.search)}`} prompt="Already have an account?">
        Log in
      </AuthSwitch>
    </AuthCard>
  );
}
