import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useDismiss } from '../lib/use-dismiss';
import './more-menu.css';

export interface MoreMenuItem {
  label: string;
  /** What choosing it does; a message it resolves to is announced beside the button ("Link copied."). */
  onSelect: () => void | Promise<string | void>;
}

export const MORE_MENU_UI = {
  copyLink: 'Copy link to this page',
  copied: 'Link copied.',
  copyFailed: 'Could not copy the link.',
} as const;

/** "Copy link to this page": the page's canonical address to the clipboard, and a word that it is there. */
export const copyLinkItem = (url: string): MoreMenuItem => ({
  label: MORE_MENU_UI.copyLink,
  onSelect: async () => {
    try {
      await navigator.clipboard.writeText(url);
      return MORE_MENU_UI.copied;
    } catch {
      return MORE_MENU_UI.copyFailed;
    }
  },
});

/** How long a message of a chosen item stays on screen. */
const NOTE_MS = 4_000;

/**
 * The "⋯" menu of a public page's secondary actions (copy the link, report): out of the way of the page's main
 * button (product-polish "Public pages"). The ARIA menu-button pattern: the button says whether the menu is open
 * (`aria-expanded`); opening moves focus into the menu (Enter, Space or ArrowDown: the first item; ArrowUp: the
 * last), arrows and Home/End move within it, Escape closes it and puts focus back on the button, Tab or a press
 * outside closes it. The button is placed by the caller out of the page's flow (absolutely), and the menu opens over
 * the page: neither its items, nor an owner's shorter list, move anything.
 */
export function MoreMenu({ label, items, className }: { label: string; items: readonly MoreMenuItem[]; className?: string }) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const [note, setNote] = useState('');
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  const entries = () => [...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return;
    const list = entries();
    (open === 'last' ? list[list.length - 1] : list[0])?.focus();
  }, [open]);
  useEffect(() => {
    if (!note) return;
    const timer = window.setTimeout(() => setNote(''), NOTE_MS);
    return () => window.clearTimeout(timer);
  }, [note]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  useDismiss(Boolean(open), rootRef, (how) => close(how === 'escape'));

  const choose = (item: MoreMenuItem) => {
    close(true);
    void Promise.resolve(item.onSelect()).then((message) => {
      if (message) setNote(message);
    });
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    setOpen(e.key === 'ArrowUp' ? 'last' : 'first');
  };

  const onMenuKey = (e: KeyboardEvent) => {
    const list = entries();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      e.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(list.length - 1);
    else if (e.key === 'Tab') setOpen(false);
  };

  return (
    <div className={`more-menu${className ? ` ${className}` : ''}`} ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button more-menu__button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={Boolean(open)}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={onButtonKey}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <circle cx="5" cy="12" r="2" fill="currentColor" />
          <circle cx="12" cy="12" r="2" fill="currentColor" />
          <circle cx="19" cy="12" r="2" fill="currentColor" />
        </svg>
      </button>
      {open ? (
        <ul id={menuId} role="menu" aria-label={label} className="more-menu__list" onKeyDown={onMenuKey}>
          {items.map((item) => (
            <li role="none" key={item.label}>
              <button type="button" role="menuitem" tabIndex={-1} onClick={() => choose(item)}>
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p role="status" className="more-menu__note">
        {note}
      </p>
    </div>
  );
}
