import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { SUCCESS_BANNER_MS } from '../lib/constants';

/** A toast with an action (Undo) stays longer: there must be time to reach the button. */
export const TOAST_ACTION_MS = 8000;
/** At most this many on screen; an older one gives way to a newer one. */
const MAX_TOASTS = 3;

export interface ToastOptions {
  message: string;
  /** A button in the toast (Undo): it runs, then the toast goes. */
  action?: { label: string; onAction: () => void };
  tone?: 'success' | 'error';
  /** How long it stays while not hovered or focused; the defaults are 5 s, or 8 s with an action. */
  durationMs?: number;
}

/** Shows a toast: a message, or the message with its options. */
export type ShowToast = (toast: string | ToastOptions) => void;

interface Item extends ToastOptions {
  id: number;
}

// Outside a provider (a component tested on its own) a toast goes nowhere rather than throw.
const ToastContext = createContext<ShowToast>(() => undefined);

/**
 * Confirmation of an owner's action (issue 28): "Answer posted", "Settings saved", "Link copied", hide/show with Undo.
 * `useToast()` gives the `show` function; the provider is mounted once, in the app shell.
 */
export function useToast(): ShowToast {
  return useContext(ToastContext);
}

/**
 * Holds the toasts and renders them stacked in one polite live region (it stays in the DOM, so text put into it is
 * announced), in a labelled region landmark.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Item[]>([]);
  const nextId = useRef(1);
  const show = useCallback<ShowToast>((toast) => {
    const options = typeof toast === 'string' ? { message: toast } : toast;
    const id = nextId.current++;
    setItems((current) => [...current, { ...options, id }].slice(-MAX_TOASTS));
  }, []);
  const dismiss = useCallback((id: number) => setItems((current) => current.filter((t) => t.id !== id)), []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <section className="toasts" aria-label="Notifications">
        <div role="status" aria-live="polite" className="toasts__list">
          {items.map((item) => (
            <ToastView key={item.id} item={item} dismiss={dismiss} />
          ))}
        </div>
      </section>
    </ToastContext.Provider>
  );
}

/** One toast: its own clock, paused while the pointer is over it or focus is in it (then restarted in full). */
function ToastView({ item, dismiss }: { item: Item; dismiss: (id: number) => void }) {
  const { id } = item;
  // Stable across the provider's renders: a newer toast does not restart this one's clock.
  const onDismiss = useCallback(() => dismiss(id), [dismiss, id]);
  const [paused, setPaused] = useState(false);
  const duration = item.durationMs ?? (item.action ? TOAST_ACTION_MS : SUCCESS_BANNER_MS);
  const hovered = useRef(false);
  const focused = useRef(false);
  const update = () => setPaused(hovered.current || focused.current);
  useEffect(() => {
    if (paused) return;
    const t = window.setTimeout(onDismiss, duration);
    return () => window.clearTimeout(t);
  }, [paused, duration, onDismiss]);
  return (
    <div
      className={`toast toast--${item.tone ?? 'success'}`}
      onMouseEnter={() => {
        hovered.current = true;
        update();
      }}
      onMouseLeave={() => {
        hovered.current = false;
        update();
      }}
      onFocus={() => {
        focused.current = true;
        update();
      }}
      onBlur={(e) => {
        if (e.currentTarget.contains(e.relatedTarget)) return;
        focused.current = false;
        update();
      }}
    >
      <p className="toast__message">{item.message}</p>
      {item.action ? (
        <button
          type="button"
          className="toast__action"
          onClick={() => {
            item.action!.onAction();
            onDismiss();
          }}
        >
          {item.action.label}
        </button>
      ) : null}
      <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={onDismiss}>
        <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
          <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}

/** What copying says. */
export const COPY_MESSAGES = {
  copied: 'Link copied',
  failed: 'Could not copy: select the link and copy it yourself.',
} as const;

/**
 * Copies a text (a profile link, an embed snippet) and says so in a toast: "Link copied" unless the caller names it
 * otherwise ("Snippet copied"); a refused clipboard says so too. Resolves to whether it was copied.
 */
export function useCopy(): (text: string, copied?: string) => Promise<boolean> {
  const toast = useToast();
  return useCallback(
    async (text: string, copied: string = COPY_MESSAGES.copied) => {
      try {
        await navigator.clipboard.writeText(text);
        toast(copied);
        return true;
      } catch {
        toast({ message: COPY_MESSAGES.failed, tone: 'error' });
        return false;
      }
    },
    [toast],
  );
}
