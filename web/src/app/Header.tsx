import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Avatar } from '../components/Avatar';
import { useAuth } from '../lib/auth/auth-context';
import { Logo } from '../components/Logo';
import { profilePath } from '@ques/contracts/core';

interface HeaderProps {
  onOpenSupport: () => void;
}

/**
 * Site header (spec §2 "Header"). Logged out: logo and "Sign Up". Logged in: logo and an avatar button that
 * slides the nav menu in (400 ms).
 */
export function Header({ onOpenSupport }: HeaderProps) {
  const { user, authLoading, operator } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const location = useLocation();

  // Close on navigation.
  useEffect(() => setMenuOpen(false), [location.pathname]);

  // Escape and outside clicks close the menu; focus goes to the first item when it opens.
  useEffect(() => {
    if (!menuOpen) return;
    panelRef.current?.querySelector<HTMLElement>('.nav-panel__list a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panelRef.current?.contains(target) && !toggleRef.current?.contains(target)) setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen]);

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to="/" className="site-header__logo" aria-label="Ques home">
          <Logo />
        </Link>
        {user ? (
          <>
            <button
              ref={toggleRef}
              type="button"
              className="avatar-button"
              aria-expanded={menuOpen}
              aria-controls={menuId}
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <Avatar name={user.name} url={user.avatarUrl} size={40} initialsWhenDefault />
            </button>
            <nav
              ref={panelRef}
              id={menuId}
              className={`nav-panel${menuOpen ? ' is-open' : ''}`}
              aria-label="Main"
              // Hidden from the tab order and screen readers while slid out.
              inert={!menuOpen}
            >
              <div className="nav-panel__top">
                <p className="nav-panel__who">
                  Signed in as <strong>{user.name || user.username}</strong>
                </p>
                <button
                  type="button"
                  className="icon-button"
                  aria-label="Close menu"
                  onClick={() => {
                    setMenuOpen(false);
                    toggleRef.current?.focus();
                  }}
                >
                  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                    <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                  </svg>
                </button>
              </div>
              <ul className="nav-panel__list">
                <li>
                  <Link to="/">Home</Link>
                </li>
                {user.username ? (
                  <li>
                    <Link to={profilePath(user.username)}>View my page</Link>
                  </li>
                ) : null}
                <li>
                  <Link to="/admin">Manage Questions</Link>
                </li>
                <li>
                  <Link to="/admin/account-settings">Account Settings</Link>
                </li>
                {operator ? (
                  <li>
                    <Link to="/ops">Operator Console</Link>
                  </li>
                ) : null}
                <li>
                  <button
                    type="button"
                    onClick={() => {
                      setMenuOpen(false);
                      onOpenSupport();
                    }}
                  >
                    Support
                  </button>
                </li>
                <li>
                  <LogoutButton />
                </li>
              </ul>
            </nav>
          </>
        ) : authLoading ? (
          <span className="site-header__placeholder" aria-hidden="true" />
        ) : (
          <Link to="/signup" className="button button--primary button--small">
            Sign Up
          </Link>
        )}
      </div>
    </header>
  );
}

function LogoutButton() {
  const { logout } = useAuth();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void logout();
      }}
    >
      {busy ? 'Logging out…' : 'Logout'}
    </button>
  );
}
