import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../../lib/router';
import { ErrorBanner } from '../../components/Banner';
import { errorText } from '../../lib/api';
import type { User } from '../../lib/api';
import { useDocumentHead } from '../../lib/head';
import { signup } from './api';
import { useAuth } from './auth-context';
import { AuthCard } from './AuthCard';

export default function SignupPage() {
  useDocumentHead({
    title: 'Sign up — Ques',
    description: 'Create your Ques page: answer questions once, publish the answers, get tipped for your expertise.',
    canonical: '/signup',
  });
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const ids = { name: useId(), email: useId(), password: useId(), terms: useId() };
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim() || !email.trim() || !password) {
      setError('Name, email and password are required');
      return;
    }
    if (!agreed) {
      setError('Please agree to the Terms of Use and Privacy Policy to sign up');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const data = await signup(name.trim(), email.trim(), password);
      // Spec §3: the user comes as `user`, or the body itself is the user.
      const user = (data.user ?? data) as User;
      const accessToken = data.token ?? data.accessToken;
      if (!user || typeof user.name !== 'string') {
        setError(data.message || 'Signup failed');
        setBusy(false);
        return;
      }
      if (!accessToken) console.warn('Signup response carried no token'); // spec §8: only logged
      signIn(user, accessToken, data.refreshToken);
      void navigate('/', { replace: true });
    } catch (err) {
      setError(errorText(err, 'Signup failed', 'Signup failed. Please try again.'));
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Create your Ques page" intro="Answer once, publish it, and let people tip you for what you know.">
      <form className="form" noValidate onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor={ids.name} className="field__label">
            Name
          </label>
          <input id={ids.name} className="input" type="text" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.email} className="field__label">
            Email
          </label>
          <input id={ids.email} className="input" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.password} className="field__label">
            Password
          </label>
          <input
            id={ids.password}
            className="input"
            type="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <label className="checkbox" htmlFor={ids.terms}>
          <input id={ids.terms} type="checkbox" required checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
          <span>
            I agree to the{' '}
            <a href="/terms-of-use" target="_blank" rel="noopener noreferrer">
              Terms of Use
            </a>{' '}
            and{' '}
            <a href="/privacy-policy" target="_blank" rel="noopener noreferrer">
              Privacy Policy
            </a>
            .
          </span>
        </label>
        <ErrorBanner>{error}</ErrorBanner>
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Creating your account…' : 'Sign Up'}
        </button>
      </form>
      <p className="auth__switch">
        Already have an account?{' '}
        <Link to="/login" className="text-link">
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}
