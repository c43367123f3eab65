import { useCallback, useEffect, useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { MODAL_CLOSE_MS, MODAL_OPEN_DELAY_MS, prefersReducedMotion } from '../lib/constants';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  title: ReactNode;
  /** Called once the closing animation has finished; the parent unmounts the modal then. */
  onClose: () => void;
  /** Content, or a function receiving `requestClose` (animated close) for use after success. */
  children: ReactNode | ((requestClose: () => void) => ReactNode);
  /** Element to focus first (defaults to the first field or button in the body). */
  initialFocusSelector?: string;
  className?: string;
  /** Extra style on the backdrop, e.g. an owner's theme variables (the modal renders outside their page). */
  style?: CSSProperties;
}

/**
 * Accessible modal dialog: role="dialog", aria-modal, focus trapped and restored, Escape/backdrop/close
 * icon close it. It fades in after 10 ms and out over 600 ms (spec §2, §9); with reduced motion it opens
 * and closes at once.
 */
export function Modal({ title, onClose, children, initialFocusSelector, className, style }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const closingRef = useRef(false);
  const closeTimer = useRef<number | undefined>(undefined);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  const requestClose = useCallback(() => {
    if (closingRef.current) return;
    closingRef.current = true;
    setOpen(false);
    if (prefersReducedMotion()) onCloseRef.current();
    else closeTimer.current = window.setTimeout(() => onCloseRef.current(), MODAL_CLOSE_MS);
  }, []);

  // Open after the 10 ms delay so the CSS transition runs.
  useEffect(() => {
    const t = window.setTimeout(() => setOpen(true), MODAL_OPEN_DELAY_MS);
    return () => window.clearTimeout(t);
  }, []);
  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  // Focus in, background inert and unscrollable; everything restored on unmount.
  useEffect(() => {
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    const target =
      (initialFocusSelector && dialog?.querySelector<HTMLElement>(initialFocusSelector)) ||
      dialog?.querySelector<HTMLElement>(`.modal__body ${FOCUSABLE}`) ||
      dialog;
    target?.focus();
    const root = document.getElementById('root');
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    root?.setAttribute('inert', '');
    return () => {
      document.body.style.overflow = overflow;
      root?.removeAttribute('inert');
      previouslyFocused?.focus();
    };
    // Mount-only on purpose: focus moves in once.
  }, []);

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const dialog = dialogRef.current;
      if (!dialog) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        requestClose();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
        (el) => !el.closest('[hidden]'),
      );
      if (items.length === 0) {
        e.preventDefault();
        dialog.focus();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const active = document.activeElement;
      if (!dialog.contains(active)) {
        e.preventDefault();
        first.focus();
      } else if (e.shiftKey && (active === first || active === dialog)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && active === last) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [requestClose]);

  return createPortal(
    <div
      className={`modal-backdrop${open ? ' is-open' : ''}`}
      style={style}
      data-testid="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) requestClose();
      }}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`modal${className ? ` ${className}` : ''}`}
      >
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <button type="button" className="icon-button modal__close" aria-label="Close" onClick={requestClose}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <div className="modal__body">{typeof children === 'function' ? children(requestClose) : children}</div>
      </div>
    </div>,
    document.body,
  );
}
