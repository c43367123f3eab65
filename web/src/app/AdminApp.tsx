import { lazy } from 'react';
import { Route, Routes } from 'react-router-dom';
import { AreaNotFound } from '../components/AreaNotFound';
import { AdminLayout } from '../features/admin/AdminLayout';
import QuestionReceivedPage from '../features/admin/QuestionReceivedPage';

// The inbox is where /admin lands, so it ships with this chunk; the other screens load when opened.
const QuestionsAskedPage = lazy(() => import('../features/admin/QuestionsAskedPage'));
const QuestionsCuratedPage = lazy(() => import('../features/admin/QuestionsCuratedPage'));
const PaymentPage = lazy(() => import('../features/payments/PaymentPage'));
const AccountSettingsPage = lazy(() => import('../features/account/AccountSettingsPage'));
const SetupPage = lazy(() => import('../features/onboarding/SetupPage'));

/**
 * /admin/* — loaded only for signed-in users, never part of the public bundle. The admin area puts screens of three
 * features (admin lists, payments, account) under one layout, so it is composed here in the app layer.
 */
export default function AdminApp() {
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<QuestionReceivedPage />} />
        <Route path="questions-asked" element={<QuestionsAskedPage />} />
        <Route path="questions-curated" element={<QuestionsCuratedPage />} />
        <Route path="payment" element={<PaymentPage />} />
        <Route path="account-settings/*" element={<AccountSettingsPage />} />
        <Route path="setup" element={<SetupPage />} />
        <Route path="*" element={<AreaNotFound title="Not found — Ques" description="This admin page does not exist." home="/admin" homeLabel="Go to your questions" />} />
      </Route>
    </Routes>
  );
}
