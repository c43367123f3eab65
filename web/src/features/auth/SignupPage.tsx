import { useEffect, useId, useState, type FormEvent } from 'react';
import { HANDLE_MESSAGES, handleCandidates, IDENTITY_MESSAGES, LIMITS, normalizeHandle, type User } from '@ques/contracts/core';
import { useLocation, useNavigate } from 'react-router-dom';
import { ErrorBanner } from '../../components/Banner';
import { Checkbox, InputField, TermsLinks } from '../../components/Field';
import { usePageHead } from '../../lib/head';
import { errorText } from '../../lib/api';
import { signup } from './api';
import { useAuth } from '../../lib/auth/auth-context';
import { AuthCard, AuthSubmit, AuthSwitch } from './AuthCard';
import { nextPath, nextQuery } from './next';
import { HandleField } from '../../components/HandleField';
import { useHandleCheck } from '../../components/use-handle-check';

const TERMS_REQUIRED = 'Please agree to the Terms of Use and Privacy Policy to sign up';

type Fields = 'name' | 'email' | 'password' | 'handle' | 'terms';

/** The first handle a name leads to that the server has not refused yet (`skip` of them were taken). */
function suggestedHandle(name: string, skip: number): string {
  if (!name.trim()) return '';
  let n = 0;
  for (const candidate of handleCandidates(name)) if (n++ === skip) return candidate;
  return '';
}

/**
 * Sign-up (spec §2) with the public link chosen here (issue 28): prefilled from the name, checked live. Every
 * field's problem shows under it, all at once after the first submit, and goes as soon as the field is valid.
 */
export default function SignupPage() {
  usePageHead('Sign up — Ques', 'Create your Ques page: answer questions once, publish the answers, get tipped for your expertise.', '/signup');
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const termsErrorId = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  // Until the person edits it, the link follows the name (and the next number when the server says it is taken).
  const [typedHandle, setTypedHandle] = useState<string | null>(null);
  const [taken, setTaken] = useState(0);
  const handle = typedHandle ?? suggestedHandle(name, taken);
  const check = useHandleCheck(handle);
  const [attempted, setAttempted] = useState(false);
  // The server's refusals, each for the value it refused (it goes when the value changes).
  const [server, setServer] = useState<{ field: Fields | 'form'; message: string; value: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (typedHandle === null && check.state === 'refused' && check.reason === HANDLE_MESSAGES.taken && taken < 50) setTaken((n) => n + 1);
  }, [typedHandle, check, taken]);

  const values: Record<Fields, string> = { name, email, password, handle, terms: String(agreed) };
  const problems: Record<Fields, string> = {
    name: name.trim() ? '' : 'Name is required',
    email: !email.trim() ? 'Email is required' : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? '' : 'Please enter a valid email address',
    password: !password ? 'Password is required' : password.length < LIMITS.passwordMin ? `Password must be at least ${LIMITS.passwordMin} characters` : '',
    // The live check shows its own refusals; a missing handle is the form's to say.
    handle: handle.trim() ? '' : HANDLE_MESSAGES.required,
    terms: agreed ? '' : TERMS_REQUIRED,
  };
  const errorOf = (field: Fields) => {
    if (server?.field === field && server.value === values[field]) return server.message;
    return attempted ? problems[field] : '';
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setAttempted(true);
    setServer(null);
    const invalid = (Object.keys(problems) as Fields[]).find((f) => problems[f]);
    if (invalid || check.state === 'refused') {
      document.getElementById(`signup-${invalid ?? 'handle'}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const data = await signup(name.trim(), email.trim(), password, normalizeHandle(handle));
      // Spec §3: the user comes as `user`, or the body itself is the user.
      const user = (data.user ?? data) as User;
      const accessToken = data.token ?? data.accessToken;
      if (!user || typeof user.name !== 'string') throw new Error(data.message || 'Signup failed');
      if (!accessToken) console.warn('Signup response carried no token'); // spec §8: only logged
      signIn(user, accessToken, data.refreshToken);
      void navigate(nextPath(location.search, '/admin/setup'), { replace: true });
    } catch (err) {
      const message = err instanceof Error && !('status' in err) ? err.message : errorText(err, 'Signup failed', 'Signup failed. Please try again.');
      // The server's words go under the field they are about.
      const field: Fields | 'form' =
        message === IDENTITY_MESSAGES.emailTaken || /email/i.test(message) ? 'email'
        : Object.values(HANDLE_MESSAGES).includes(message as never) ? 'handle'
        : /password/i.test(message) ? 'password'
        : /name/i.test(message) ? 'name'
        : 'form';
      setServer({ field, message, value: field === 'form' ? '' : values[field] });
      setBusy(false);
    }
  };

  const termsError = errorOf('terms');
  return (
    <AuthCard title="Create your Ques page" intro="Answer once, publish it, and let people tip you for what you know.">
      <form className="form" noValidate onSubmit={(e) => void onSubmit(e)}>
        <InputField id="signup-name" label="Name" type="text" autoComplete="name" required value={name} onChange={setName} error={errorOf('name')} />
        <InputField id="signup-email" label="Email" type="email" autoComplete="email" required value={email} onChange={setEmail} error={errorOf('email')} />
        <InputField
          id="signup-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={setPassword}
          error={errorOf('password')}
        />
        <HandleField
          id="signup-handle"
          value={handle}
          onChange={setTypedHandle}
          check={check}
          error={errorOf('handle')}
          hint="Your public page. You can change it later."
        />
        <div className="field">
          <Checkbox id="signup-terms" checked={agreed} onChange={setAgreed} required invalid={Boolean(termsError)} {...(termsError ? { describedBy: termsErrorId } : {})}>
            I agree to <TermsLinks />.
          </Checkbox>
          <ErrorBanner id={termsErrorId}>{termsError}</ErrorBanner>
        </div>
        <ErrorBanner>{server?.field === 'form' ? server.message : ''}</ErrorBanner>
        <AuthSubmit busy={busy} label="Sign Up" busyLabel="Creating your account…" />
      </form>
      <AuthSwitch to={`/login${nextQuery(location.search)}`} prompt="Already have an account?">
        Log in
      </AuthSwitch>
    </AuthCard>
  );
}
