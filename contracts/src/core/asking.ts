/*
 * Owner control over asking (issue 16): pausing the page, a cap on open questions, word filters and blocks. Zod-free:
 * the web app imports the limits, the messages and the shapes' types from here.
 */

/** Bounds of an owner's settings (a clear 400 beyond them). */
export const ASKING_LIMITS = {
  /** Blocked words and phrases per owner. */
  filterEntries: 500,
  /** Characters per blocked word or phrase. */
  filterLength: 100,
  /** The optional note shown while paused. */
  note: 280,
  /** Highest cap on open (pending) questions. */
  capMax: 10_000,
  /** Guest questions one device may send one owner per rolling day. */
  guestAsksPerDevicePerDay: 5,
} as const;

/** The request header carrying the browser's device token (a random id kept in localStorage). */
export const DEVICE_HEADER = 'x-ques-device';
/** Where the web app keeps the device token. */
export const DEVICE_STORAGE_KEY = 'quesDevice';
/** A device token as the client sends it: 16 to 128 URL-safe characters. */
export const DEVICE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** "Not taking questions until {date}": the date as the public page and the refusal write it. */
export function formatPausedUntil(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

export const ASKING_MESSAGES = {
  /** The neutral refusal of a filtered question or a blocked asker: it says nothing about why. */
  refused: (name: string) => `This question can't be sent to ${name}.`,
  paused: (name: string, untilIso: string) =>
    `${name} is not taking questions until ${formatPausedUntil(untilIso)}.`,
  atCap: (name: string) => `${name} has too many open questions right now. Please try again later.`,
  guestLimit: (name: string) =>
    `You have sent ${name} several questions today. Please wait a day or sign in to ask more.`,
  tooManyFilters: `You can block at most ${ASKING_LIMITS.filterEntries} words or phrases.`,
  filterTooLong: `Each blocked word or phrase must be at most ${ASKING_LIMITS.filterLength} characters.`,
  filterEmpty: 'A blocked word or phrase must contain at least one letter or digit.',
  noteTooLong: `The note must be at most ${ASKING_LIMITS.note} characters.`,
  pausedUntilInvalid: 'The pause date must be a valid date.',
  capInvalid: `The cap must be a whole number between 1 and ${ASKING_LIMITS.capMax}, or empty for no cap.`,
  blockNotFound: 'Block not found',
  cannotBlockSelf: 'You cannot block yourself.',
  notYours: 'Only the recipient can block the asker of this question.',
} as const;

/** The owner's settings as `GET/PUT /api/asking/settings` answer. */
export interface AskingSettings {
  /** ISO time until which the page is paused; null when taking questions (a past date counts as not paused). */
  pausedUntil: string | null;
  pauseNote: string;
  /** Most open (pending) questions at once; null: no cap. */
  pendingCap: number | null;
  /** The owner's blocked words and phrases, as typed. */
  blockedWords: string[];
  /** Whether Ques' small built-in list is applied too. */
  builtInFilter: boolean;
  /** Reminder e-mails about held tips (24 h, 72 h, 4 days). */
  nudges: boolean;
}

/** What a public page shows in place of the ask button (`GET /api/asking/status/:username`). */
export interface AskingStatus {
  accepting: boolean;
  /** `paused`: until `pausedUntil`, with the owner's note; `cap`: too many open questions. */
  reason: 'paused' | 'cap' | null;
  pausedUntil: string | null;
  note: string;
}

/** One block as the owner sees it in settings. */
export interface AskerBlock {
  id: string;
  /** The asker's name as they gave it on the question the block was made from. */
  label: string;
  /** What the block covers (never the hashes themselves). */
  byAccount: boolean;
  byEmail: boolean;
  byDevice: boolean;
  createdAt: string;
}
