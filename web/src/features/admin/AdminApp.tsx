import { lazy, Suspense } from 'react';
import { Route, Routes } from '../../lib/router';
import { LoadingText } from '../../components/Banner';
import { AdminLayout } from './AdminLayout';
import { ComingSoon } from './ComingSoon';
import './admin.css';

const AccountSettingsPage = lazy(() => import('../account/AccountSettingsPage'));

/** /admin/* — loaded only for signed-in users, never part of the public bundle. */
export default function AdminApp() {
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<ComingSoon title="Question Received" />} />
        <Route path="questions-asked" element={<ComingSoon title="Questions Asked" />} />
        <Route path="questions-curated" element={<ComingSoon title="Questions Curated" />} />
        <Route path="payment" element={<ComingSoon title="Payment" />} />
        <Route
          path="account-settings"
          element={
            <Suspense fallback={<LoadingText>Loading…</LoadingText>}>
              <AccountSettingsPage />
            </Suspense>
          }
        />
        <Route path="*" element={<ComingSoon title="Not found" />} />
      </Route>
    </Routes>
  );
}
