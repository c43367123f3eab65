import { useEffect, type RefObject } from 'react';

/** While `open`, Escape and a pointer press outside `within` call `close` (the admin menus and dropdowns). */
export function useDismiss(open: boolean, within: RefObject<HTMLElement | null>, close: (how: 'escape' | 'outside') => void) {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close('escape');
    };
    const onPointer = (e: PointerEvent) => {
      if (!within.current?.contains(e.target as Node)) close('outside');
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
    // `close` may be a new function each render; what it does does not change while the menu is open.
  }, [open, within]);
}
