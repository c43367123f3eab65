/*
 * The zod-free part of the identity context: product constants and the username rule. Re-exported by `../identity.ts`
 * (so `@ques/contracts` keeps them) and by `@ques/contracts/core` (the browser's entry).
 */

export const DEFAULT_AVATAR_URL = '/images/user-image.png';
export const DEFAULT_BRAND_COLOR_MAIN = '#1A140F';
export const DEFAULT_BRAND_COLOR_LIGHT = '#FAF6F2';

export const LIMITS = {
  name: 80,
  email: 254,
  bio: 1000,
  passwordMin: 8,
  passwordMax: 200,
  username: 40,
} as const;

/**
 * Username rule of spec §3: lowercase, trimmed, spaces to hyphens, non-word characters removed.
 * (Hyphens survive: they are what spaces became.)
 */
export function usernameFromName(name: string): string {
  return name
    .toLowerCase()
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^\w-]/g, '')
    .slice(0, LIMITS.username);
}

/** Size limit of an avatar upload (spec: 2 MB). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** True for no avatar or the default image (with or without a query string or origin in front). */
export function isDefaultAvatar(url: string | null | undefined): boolean {
  if (!url) return true;
  return (url.split('?')[0] ?? '').endsWith(DEFAULT_AVATAR_URL);
}
