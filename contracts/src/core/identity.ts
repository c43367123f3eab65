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

/** The profile fields a person edits in account settings (identity's `ProfileUpdated` names the changed ones). */
export interface EditableProfileFields {
  name: string;
  email: string;
  bio: string;
  brandColorMain: string;
  brandColorLight: string;
}

/** Size limit of an avatar upload (spec: 2 MB). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** True for no avatar or the default image (with or without a query string or origin in front). */
export function isDefaultAvatar(url: string | null | undefined): boolean {
  if (!url) return true;
  return (url.split('?')[0] ?? '').endsWith(DEFAULT_AVATAR_URL);
}

/** What identity answers, in the words the web app shows (spec §8 style). */
export const IDENTITY_MESSAGES = {
  emailTaken: 'An account with this email already exists.',
  usernameTaken: 'That link is taken.',
  badCredentials: 'Invalid email or password',
  tooManyLogins: 'Too many login attempts. Please try again later.',
  badRefresh: 'Invalid or expired refresh token',
  sessionEnded: 'Session has ended, please log in again',
  userNotFound: 'User not found',
  imageNotFound: 'Image not found',
  deleteOwnOnly: 'You can only delete your own account.',
  newPasswordRequired: 'Please enter a new password.',
  currentPasswordRequired: 'Please enter your current password.',
  currentPasswordWrong: 'Your current password is incorrect.',
  profileBodyNotObject: 'The profile must be sent as a JSON object.',
  chooseImage: 'Please choose an image to upload.',
  avatarTooLarge: 'Image too large. Please pick one under 2 MB.',
  notAnImage: 'Please upload a JPEG, PNG, WebP, GIF or AVIF image.',
  tooManyPixels: 'This image is too large to process. Please pick a smaller one.',
  unreadableImage: 'This image could not be read. Please try another one.',
  badUpload: 'The upload could not be read. Please choose the image again.',
  resetSent: 'Reset instructions sent',
  resetFailed: 'Reset failed. The link may have expired or been used already.',
  resetDone: 'Your password has been reset. You can log in now.',
  verifyFailed: 'This verification link is invalid, expired or already used. Sign in and send a new one from Account Settings.',
  verified: 'Your email address is verified.',
  verificationSent: 'Verification email sent. Please check your inbox.',
  alreadyVerified: 'Your email address is already verified.',
  tooManyVerifications: 'Too many verification emails. Please try again later.',
  /** Bounded mail (issue 33, ADR 0054): an address change mails the new address, so changes are capped per day. */
  tooManyEmailChanges: `You can change your e-mail address at most 3 times a day. Please try again tomorrow.`,
  tooManyMailsToAddress: 'We have sent this e-mail address enough mail for today. Please try again tomorrow.',
  tooManyMailsForAccount: 'We have sent this account enough verification e-mails for today. Please try again tomorrow.',
  /** Names go into e-mails and pages as plain text: one line, no control characters (ADR 0054). */
  nameControl: 'Name cannot contain line breaks or control characters.',
} as const;

/** E-mail address changes per account per rolling day (ADR 0054). */
export const EMAIL_CHANGES_PER_DAY = 3;
/**
 * Verification mails to one address per UTC day, whichever account asks, the address normalised as the guest limit
 * normalises it (ADR 0054, 0060).
 */
export const MAILS_PER_ADDRESS_PER_DAY = 5;
/** Verification mails (sign-up, changes, resends) per account per UTC day, whatever addresses (ADR 0060). */
export const VERIFICATION_MAILS_PER_ACCOUNT_PER_DAY = 10;
/** Password-reset mails to one normalised address per UTC day, over every account it names (ADR 0060). */
export const RESET_MAILS_PER_ADDRESS_PER_DAY = 10;
/** C0 and C1 controls, line and paragraph separators and bidirectional overrides: never part of a name. */
const CONTROL_CHARS = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
export const hasControlChars = (value: string): boolean => CONTROL_CHARS.test(value);

/** How long a mailed e-mail verification link works. */
export const EMAIL_VERIFICATION_TTL_HOURS = 24;
/** Password-reset mails per address per hour; more requests answer the same and send nothing. */
export const RESET_MAILS_PER_HOUR = 5;
/** Verification mails (signup and change included) per account per hour. */
export const VERIFICATION_MAILS_PER_HOUR = 5;
