import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from '../../lib/router';
import { Avatar } from '../../components/Avatar';
import { LoadingText } from '../../components/Banner';
import { useAuth } from '../../lib/auth/auth-context';
import './admin.css';
import { useDismiss } from '../../lib/use-dismiss';

interface NavItem {
  to: string;
  label: string;
  end: boolean;
}

const GROUPS: readonly { heading: string; items: readonly NavItem[] }[] = [
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
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const asideRef = useRef<HTMLElement>(null);
  useEffect(() => setOpen(false), [pathname]);

  // The mobile dropdown closes on Escape and on a click elsewhere.
  useDismiss(open, asideRef, () => setOpen(false));

  const current = GROUPS.flatMap((g) => g.items).find((i) => (i.end ? pathname === i.to || pathname === `${i.to}/` : pathname.startsWith(i.to)));

  return (
    <div className="admin">
      <aside className="admin__aside" ref={asideRef}>
        <button
          type="button"
          className="admin__menu-toggle"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((o) => !o)}
        >
          <Avatar name={user?.name} url={user?.avatarUrl} size={32} initialsWhenDefault />
          <span className="admin__who">
            <span className="admin__who-name">{user?.name || 'Unknown User'}</span>
            <span className="admin__who-page">{current?.label ?? 'Menu'}</span>
          </span>
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" className="admin__chevron">
            <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
        </button>
        <nav id={menuId} className={`admin__nav${open ? ' is-open' : ''}`} aria-label="Admin">
          {GROUPS.map((group) => (
            <div key={group.heading} className="admin__group">
              <p className="admin__group-heading">{group.heading}</p>
              <ul>
                {group.items.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} end={item.end} className="admin__link">
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </aside>
      <div className="admin__content">
        {/* The navigation stays while a screen's chunk loads. */}
        <Suspense fallback={<LoadingText>Loading…</LoadingText>}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
