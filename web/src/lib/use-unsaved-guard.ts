import { useEffect } from 'react';

/** What the owner is asked before leaving a form with changes not saved (issue 28). */
export const UNSAVED_MESSAGE = 'You have unsaved changes. Leave anyway?';

/** A plain click on a link that leaves this page (not a new tab, not an anchor on the same page). */
function leavingLink(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
  const to = new URL(anchor.href, window.location.href);
  const here = window.location;
  if (to.origin === here.origin && to.pathname === here.pathname && to.search === here.search) return null;
  return anchor;
}

/**
 * While `dirty`, leaving asks first (issue 28: never lose a change silently). The app's router is BrowserRouter
 * (no data-router blocker), so the hook guards the two ways out a form has: closing or reloading the tab
 * (`beforeunload`, the browser's own prompt) and clicking a link — in-app `Link`s included: a click listener in the
 * capture phase runs before the app's own and cancels the click when the owner says no (`Link` skips a click whose
 * default was prevented). The browser's Back button is not guarded (BrowserRouter cannot hold it back).
 */
export function useUnsavedGuard(dirty: boolean, message: string = UNSAVED_MESSAGE): void {
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = message;
      return message;
    };
    const onClick = (event: MouseEvent) => {
      if (leavingLink(event) && !window.confirm(message)) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, message]);
}
