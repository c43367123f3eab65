import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { LoadingText } from '../components/Banner';
import { themeVars } from '../lib/color';
import { AuthProvider, useAuth } from '../lib/auth/auth-context';
import { loadProfilePage } from '../features/public-profile/load';
import type { AskModalSlot } from '../features/public-profile/ProfilePage';
import { REPORT_EVENT } from '../lib/report';
import { openSupport, SUPPORT_EVENT } from '../lib/support';
import type { ReportTarget } from '@ques/contracts/core';
import { Header } from './Header';
import { ToastProvider } from '../components/Toast';

// Every screen is its own chunk: the public profile downloads only the shell and its own code.
const HomePage = lazy(() => import('../features/home/HomePage'));
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const SignupPage = lazy(() => import('../features/auth/SignupPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/ResetPasswordPage'));
const ResetPasswordConfirmPage = lazy(() => import('../features/auth/ResetPasswordConfirmPage'));
const VerifyEmailPage = lazy(() => import('../features/auth/VerifyEmailPage'));
const ProfilePage = lazy(loadProfilePage);
const QuestionPage = lazy(() => import('../features/question/QuestionPage'));
// Claiming an archive profile (issue 18): its own chunk, loaded only from the archive's "Is this you?" link.
const ClaimPage = lazy(() => import('../features/claim/ClaimPage'));
const TermsPage = lazy(() => import('../features/legal/TermsPage'));
const PrivacyPage = lazy(() => import('../features/legal/PrivacyPage'));
const AdminApp = lazy(() => import('./AdminApp'));
// The operator console: its own bundle, fetched only for an operator's session (issue 18).
const OpsApp = lazy(() => import('./OpsApp'));
const SupportModal = lazy(() => import('../features/support/SupportModal'));
const ReportModal = lazy(() => import('../features/support/ReportModal'));
const NotFoundPage = lazy(() => import('./NotFoundPage'));
const StatusPage = lazy(() => import('../features/status/StatusPage'));

// The public profile opens the ask modal (its own feature and chunk); the app hands it over.
const loadAskModal = () => import('../features/ask/AskModal');
const ASK_MODAL: AskModalSlot = { Modal: lazy(loadAskModal), preload: loadAskModal };

export function App() {
  return (
    <AuthProvider>
      <ScrollToTop />
      <Routes>
        <Route element={<Shell />}>
          <Route index element={<HomePage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="signup" element={<SignupPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route path="reset-password-confirm" element={<ResetPasswordConfirmPage />} />
          <Route path="verify-email" element={<VerifyEmailPage />} />
          <Route path="ask" element={<AskIndex />} />
          <Route path="ask/:username" element={<ProfilePage ask={ASK_MODAL} />} />
          <Route path="ask/:username/claim" element={<ClaimPage />} />
          <Route path="ask/:username/question/:id/:slug?" element={<QuestionPage />} />
          <Route path="terms-of-use" element={<TermsPage />} />
          <Route path="privacy-policy" element={<PrivacyPage />} />
          <Route
            path="q/:token"
            element={
              // Issue 28: while its chunk loads, the status page's own room (the footer stays below the fold: no shift).
              <Suspense fallback={<div className="page-tall" />}>
                <StatusPage />
              </Suspense>
            }
          />
          <Route
            path="admin/*"
            element={
              <RequireAuth>
                <AdminApp />
              </RequireAuth>
            }
          />
          <Route
            path="ops/*"
            element={
              <RequireOperator>
                <OpsApp />
              </RequireOperator>
            }
          />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </AuthProvider>
  );
}

/** Header (hidden on /login), themed page, lazily loaded content and the support modal. */
function Shell() {
  const { pathname } = useLocation();
  const { user } = useAuth();
  const [supportOpen, setSupportOpen] = useState(false);
  // Issue 18: "Report" on public answers and profiles opens this (lib/report.ts).
  const [reportTarget, setReportTarget] = useState<ReportTarget | null>(null);
  useEffect(() => {
    const onReport = (e: Event) => setReportTarget((e as CustomEvent<ReportTarget>).detail);
    window.addEventListener(REPORT_EVENT, onReport);
    return () => window.removeEventListener(REPORT_EVENT, onReport);
  }, []);
  // Issue 28: "Contact support" in the footer and on the status page, for guests too (lib/support.ts).
  useEffect(() => {
    const onSupport = () => setSupportOpen(true);
    window.addEventListener(SUPPORT_EVENT, onSupport);
    return () => window.removeEventListener(SUPPORT_EVENT, onSupport);
  }, []);

  // Theme variables follow the signed-in user's brand colours, defaults otherwise (spec §2).
  useEffect(() => {
    const vars = themeVars(user?.brandColorMain, user?.brandColorLight) as Record<string, string>;
    const root = document.documentElement;
    for (const [key, value] of Object.entries(vars)) root.style.setProperty(key, value);
  }, [user?.brandColorMain, user?.brandColorLight]);

  return (
    <ToastProvider>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {pathname === '/login' ? null : <Header onOpenSupport={() => setSupportOpen(true)} />}
      <main id="main" className="site-main" tabIndex={-1}>
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
      {pathname === '/login' ? null : <SiteFooter />}
      {supportOpen ? (
        <Suspense fallback={null}>
          <SupportModal onClose={() => setSupportOpen(false)} />
        </Suspense>
      ) : null}
      {reportTarget ? (
        <Suspense fallback={null}>
          <ReportModal target={reportTarget} onClose={() => setReportTarget(null)} />
        </Suspense>
      ) : null}
    </ToastProvider>
  );
}

function SiteFooter() {
  return (
    <footer className="site-footer">
      <p>© {new Date().getFullYear()} Ques · Q&amp;A for professionals and businesses</p>
      <nav aria-label="Legal and help">
        <Link to="/terms-of-use">Terms of Use</Link>
        <Link to="/privacy-policy">Privacy Policy</Link>
        <button type="button" className="site-footer__support" onClick={openSupport}>
          Contact support
        </button>
      </nav>
    </footer>
  );
}

function PageFallback() {
  return (
    <div className="page-fallback">
      <LoadingText>Loading…</LoadingText>
    </div>
  );
}

/** /admin/* only for signed-in users; nothing while auth is loading (spec §2). */
function RequireAuth({ children }: { children: React.ReactNode }) {
  const { user, authLoading } = useAuth();
  const location = useLocation();
  if (authLoading) return null;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

/** /ops/* only for an operator's session; anyone else sees the not-found page (and never loads the console). */
function RequireOperator({ children }: { children: React.ReactNode }) {
  const { user, operator, authLoading } = useAuth();
  if (authLoading) return null;
  if (!user || !operator) return <NotFoundPage />;
  return <>{children}</>;
}

/** /ask without a username: the signed-in user's own page, else the home page. */
function AskIndex() {
  const { user, authLoading } = useAuth();
  if (authLoading) return null;
  return <Navigate to={user?.username ? `/ask/${encodeURIComponent(user.username)}` : '/'} replace />;
}

function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
