import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from '../lib/router';
import { LoadingText } from '../components/Banner';
import { useAuth } from '../lib/auth/auth-context';
import { useDismiss } from '../lib/use-dismiss';
// The console has the admin area's look: the same layout and list styles.
import '../features/admin/admin.css';
import { OPS_GROUPS, OPS_SECTIONS } from './ops-sections';

const hrefOf = (path: string) => (path ? `/ops/${path}` : '/ops');

/** The operator console's frame (issue 18): the admin area's side navigation, built from OPS_SECTIONS. */
export function OpsLayout() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const asideRef = useRef<HTMLElement>(null);
  useEffect(() => setOpen(false), [pathname]);
  // The narrow-screen menu closes on Escape and on a press elsewhere (as the admin area's).
  useDismiss(open, asideRef, () => setOpen(false));

  const current = OPS_SECTIONS.find((s) => (s.path ? pathname.startsWith(hrefOf(s.path)) : pathname === '/ops' || pathname === '/ops/'));

  return (
    <div className="admin ops">
      <aside className="admin__aside" ref={asideRef}>
        <button type="button" className="admin__menu-toggle" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen((o) => !o)}>
          <span className="admin__who">
            <span className="admin__who-name">Operator console</span>
            <span className="admin__who-page">{current?.label ?? 'Menu'}</span>
          </span>
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" className="admin__chevron">
            <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
        </button>
        <nav id={menuId} className={`admin__nav${open ? ' is-open' : ''}`} aria-label="Operator console">
          {OPS_GROUPS.map((group) => {
            const items = OPS_SECTIONS.filter((s) => s.group === group);
            if (items.length === 0) return null;
            return (
              <div key={group} className="admin__group">
                <p className="admin__group-heading">{group}</p>
                <ul>
                  {items.map((item) => (
                    <li key={item.path}>
                      <NavLink to={hrefOf(item.path)} end={!item.path} className="admin__link">
                        {item.label}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
          <p className="ops__who">Signed in as @{user?.username}</p>
        </nav>
      </aside>
      <div className="admin__content">
        <Suspense fallback={<LoadingText>Loading…</LoadingText>}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
