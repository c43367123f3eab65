import { useState } from 'react';
import { ErrorBanner } from '../../components/Banner';
import { ApiError } from '../../lib/api';
import { usePageHead } from '../../lib/head';
import { NavLink, Route, Routes } from 'react-router-dom';
import { useAuth } from '../../lib/auth/auth-context';
import { AskingSettingsSection } from './AskingSettingsSection';
import { DataTab } from './DataTab';
import { EmbedSection } from './EmbedSection';
import { ProfileTab } from './ProfileTab';
import { PublicLinkSection } from './PublicLinkSection';
import { resendVerification } from './api';
import { messageFor } from './messages';
import './account.css';

export { DELETE_CONFIRM_TEXT } from './DataTab';

const BASE = '/admin/account-settings';

/** The tabs, each its own page with its own Save (issue 28: the one long page split). */
const TABS = [
  { to: BASE, label: 'Profile', end: true },
  { to: `${BASE}/link`, label: 'Public link', end: false },
  { to: `${BASE}/asking`, label: 'Asking', end: false },
  { to: `${BASE}/website-button`, label: 'Website button', end: false },
  { to: `${BASE}/data`, label: 'Data & account', end: false },
] as const;

/** Account settings (spec §2 "Account settings", §8 account messages), in tabs. */
export default function AccountSettingsPage() {
  usePageHead('Account Settings — Ques', 'Your Ques account settings.', BASE);
  const { user } = useAuth();
  if (!user) return null;
  return (
    <section className="admin-page account">
      <h1 className="admin-page__title">Account Settings</h1>
      <VerifyNotice />
      <nav className="account__tabs" aria-label="Account settings">
        <ul>
          {TABS.map((tab) => (
            <li key={tab.to}>
              <NavLink to={tab.to} end={tab.end} className="account__tab">
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Routes>
        <Route index element={<ProfileTab />} />
        <Route path="link" element={<PublicLinkSection />} />
        <Route path="asking" element={<AskingSettingsSection />} />
        {/* Issue 15: the ask button for other websites, and the data export. */}
        <Route path="website-button" element={<EmbedSection user={user} />} />
        <Route path="data" element={<DataTab />} />
        <Route path="*" element={<ProfileTab />} />
      </Routes>
    </section>
  );
}

/** Above every tab while the address is unproven (ADR 0021). */
function VerifyNotice() {
  const { user, updateUser } = useAuth();
  const [resending, setResending] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  if (!user || user.emailVerified !== false) return null;

  const resend = async () => {
    setResending(true);
    setNote('');
    setError('');
    try {
      const res = await resendVerification();
      setNote(res.message ?? `Verification email sent to ${user.email}. Please check your inbox.`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) updateUser({ ...user, emailVerified: true });
      else setError(messageFor(err, 'Failed to send the verification email. Please try again later.'));
    }
    setResending(false);
  };

  return (
    <div className="panel account__card account__card--notice" role="region" aria-label="Verify your email">
      <h2 className="account__heading">Verify your email</h2>
      <p>
        We sent a link to <strong>{user.email}</strong>. Open it to confirm this address is yours: until then, questions
        you asked as a guest with it stay unlinked from your account and we send no notifications to it.
      </p>
      {note ? <p role="status">{note}</p> : null}
      <ErrorBanner>{error}</ErrorBanner>
      <button type="button" className="button button--ghost button--small" disabled={resending} onClick={() => void resend()}>
        {resending ? 'Sending…' : 'Resend verification email'}
      </button>
    </div>
  );
}
