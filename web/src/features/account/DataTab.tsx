import { useState } from 'react';
import { ErrorBanner } from '../../components/Banner';
import { useAuth } from '../../lib/auth/auth-context';
import { useNavigate } from 'react-router-dom';
import { deleteAccount } from './api';
import { DataExportSection } from './DataExportSection';

export const DELETE_CONFIRM_TEXT = 'Are you sure you want to delete your account? This action cannot be undone.';

/** The Data & account tab: the data export (issue 15) and deleting the account (spec §2). */
export function DataTab() {
  const { user, endSession } = useAuth();
  const navigate = useNavigate();
  const [deleteError, setDeleteError] = useState('');
  const [deleting, setDeleting] = useState(false);
  if (!user) return null;

  const removeAccount = async () => {
    if (!window.confirm(DELETE_CONFIRM_TEXT)) return;
    setDeleting(true);
    setDeleteError('');
    try {
      await deleteAccount(user.id || user._id);
      endSession();
      void navigate('/login', { replace: true, state: { flash: 'Account deleted successfully' } });
    } catch {
      setDeleteError('Failed to delete account');
      setDeleting(false);
    }
  };

  return (
    <>
      <DataExportSection />
      <div className="panel account__card account__card--danger">
        <h2 className="account__heading">Delete account</h2>
        <p>Deleting your account removes your public page and your questions. This cannot be undone.</p>
        <ErrorBanner>{deleteError}</ErrorBanner>
        <button type="button" className="button button--danger" disabled={deleting} onClick={() => void removeAccount()}>
          {deleting ? 'Deleting…' : 'Delete Account'}
        </button>
      </div>
    </>
  );
}
