import { Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { LoadingText } from './Banner';
import { useDismiss } from '../lib/use-dismiss';

export interface SideNavItem {
  to: string;
  label: string;
  /** Active only on exactly this path (an area's landing page), not below it. */
  end: boolean;
}

export interface SideNavGroup {
  heading: string;
  items: readonly SideNavItem[];
}

/**
 * The frame of a signed-in area (the admin area, the operator console): side navigation in groups, on narrow screens
 * a dropdown that names the current page and closes on Escape, a press elsewhere or navigation; the screen's chunk
 * loads under it. Styles: `features/admin/admin.css` (`admin__*`), which the area imports.
 */
export function SideNavLayout({
  className,
  navLabel,
  groups,
  avatar,
  whoName,
  footer,
}: {
  className?: string;
  /** The navigation landmark's name ("Admin", "Operator console"). */
  navLabel: string;
  groups: readonly SideNavGroup[];
  /** Shown first in the narrow-screen toggle, before who is signed in. */
  avatar?: ReactNode;
  /** Who is signed in (or the area's name), above the current page's name in the narrow-screen toggle. */
  whoName: string;
  /** Under the navigation's groups. */
  footer?: ReactNode;
}) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const asideRef = useRef<HTMLElement>(null);
  useEffect(() => setOpen(false), [pathname]);
  useDismiss(open, asideRef, () => setOpen(false));

  const current = groups
    .flatMap((g) => g.items)
    .find((i) => (i.end ? pathname === i.to || pathname === `${i.to}/` : pathname.startsWith(i.to)));

  return (
    <div className={className ? `admin ${className}` : 'admin'}>
      <aside className="admin__aside" ref={asideRef}>
        <button
          type="button"
          className="admin__menu-toggle"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((o) => !o)}
        >
          {avatar}
          <span className="admin__who">
            <span className="admin__who-name">{whoName}</span>
            <span className="admin__who-page">{current?.label ?? 'Menu'}</span>
          </span>
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" className="admin__chevron">
            <path
              d="M4 6l4 4 4-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
          </svg>
        </button>
        <nav id={menuId} className={`admin__nav${open ? ' is-open' : ''}`} aria-label={navLabel}>
          {groups.map((group) =>
            group.items.length === 0 ? null : (
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
            ),
          )}
          {footer}
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
