import { Avatar } from '../../components/Avatar';
import { SideNavLayout, type SideNavGroup } from '../../components/SideNavLayout';
import { profilePath } from '@ques/contracts/core';
import { useAuth } from '../../lib/auth/auth-context';
import { Link } from 'react-router-dom';
import './admin.css';

const GROUPS: readonly SideNavGroup[] = [
  // Issue 28: the set-up checklist, where a new owner starts.
  { heading: 'Get started', items: [{ to: '/admin/setup', label: 'Set-up', end: false }] },
  {
    heading: 'Manage Questions',
    items: [
      { to: '/admin', label: 'Question Received', end: true },
      { to: '/admin/questions-asked', label: 'Questions Asked', end: false },
      { to: '/admin/questions-curated', label: 'Questions Curated', end: false },
    ],
  },
  {
    heading: 'Settings',
    items: [
      { to: '/admin/account-settings', label: 'Account', end: false },
      { to: '/admin/payment', label: 'Payment', end: false },
    ],
  },
];

/** Admin layout (spec §2 "Admin area"): side navigation; on mobile a dropdown with the user's avatar and name. */
export function AdminLayout() {
  const { user } = useAuth();
  return (
    <SideNavLayout
      navLabel="Admin"
      groups={GROUPS}
      avatar={<Avatar name={user?.name} url={user?.avatarUrl} size={32} initialsWhenDefault />}
      whoName={user?.name || 'Unknown User'}
      // The owner's public page is always one click away (issue 28).
      footer={
        user?.username ? (
          <Link to={profilePath(user.username)} className="admin__view-page">
            View my page
          </Link>
        ) : null
      }
    />
  );
}
