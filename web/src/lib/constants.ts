/**
 * Constants of the browser side (spec §9): durations in milliseconds, sizes in CSS pixels. Business constants shared
 * with the server (default colours and avatar, limits, tip options, page metadata) come from `@ques/contracts/core`.
 */

export const SWIPE_THRESHOLD_PX = 50;
export const MODAL_OPEN_DELAY_MS = 10;
export const MODAL_CLOSE_MS = 600;
export const MENU_SLIDE_MS = 400;
export const SUCCESS_BANNER_MS = 5000;

export const AVATAR_SIZE = 80;

/** True when the user prefers reduced motion; animations and their waits are then skipped. */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}
