import { lazy } from 'react';
import { Link, Route, Routes } from '../../lib/router';
import { useDocumentHead } from '../../lib/head';
import { AdminLayout } from './AdminLayout';
import QuestionReceivedPage from './QuestionReceivedPage';
import './admin.css';

// The inbox is where /admin lands, so it ships with this chunk; the other screens load when opened.
const QuestionsAskedPage = lazy(() => import('./QuestionsAskedPage'));
const QuestionsCuratedPage = lazy(() => import('./QuestionsCuratedPage'));
const PaymentPage = lazy(() => import('../payments/PaymentPage'));
const AccountSettingsPage = lazy(() => import('../account/AccountSettingsPage'));

/** /admin/* — loaded only for signed-in users, never part of the public bundle. */
export default function AdminApp() {
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<QuestionReceivedPage />} />
        <Route path="questions-asked" element={<QuestionsAskedPage />} />
        <Route path="questions-curated" element={<QuestionsCuratedPage />} />
        <Route path="payment" element={<PaymentPage />} />
        <Route path="account-settings" element={<AccountSettingsPage />} />
        <Route path="*" element={<AdminNotFound />} />
      </Route>
    </Routes>
  );
}

function AdminNotFound() {
  useDocumentHead({ title: 'Not found — Ques', description: 'This admin page does not exist.', canonical: window.location.pathname });
  return (
    <section className="admin-page">
      <h1 className="admin-page__title">Not found</h1>
      <p className="empty-state">
        This page does not exist. <Link to="/admin" className="text-link">Go to your questions</Link>
      </p>
    </section>
  );
}
