/** Business constants of spec §9. Durations in milliseconds. */
export const DEFAULT_AVATAR_URL = '/images/user-image.png';
export const DEFAULT_BRAND_COLOR_MAIN = '#1A140F';
export const DEFAULT_BRAND_COLOR_LIGHT = '#FAF6F2';

export const SWIPE_THRESHOLD_PX = 50;
export const MODAL_OPEN_DELAY_MS = 10;
export const MODAL_CLOSE_MS = 600;
export const MENU_SLIDE_MS = 400;
export const SUCCESS_BANNER_MS = 5000;

export const AVATAR_MAX_BYTES = 2_097_152;
export const AVATAR_SIZE = 80;
export const EXCERPT_CHARS = 150;
export const STRUCTURED_DATA_QUESTIONS = 2;
export const MIN_CUSTOM_TIP = 1;

export const SITE_NAME = 'Ques';
export const DEFAULT_TITLE = 'Ques | Q&A Platform for Businesses and Professionals';
export const DEFAULT_DESCRIPTION =
  'Your personal FAQ. Let fans and customers ask you directly, once — and never repeat yourself again.';
export const DEFAULT_SHARE_IMAGE = '/images/og-default.png';

/** True when the user prefers reduced motion; animations and their waits are then skipped. */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}
