import type { PublicProfile } from '../identity.js';
import type { PublicQuestion } from '../questions.js';

/*
 * Issue 15 (reach, docs/adr/0029): the owner's public trust stats, the share image URLs and the Atom feed's URL.
 * Pure and zod-free: the BFF's crawler HTML and the browser's `document.head` compute the same URLs.
 */

/** The period the trust stats cover. */
export const TRUST_STATS_DAYS = 90;
/** The answer window the rate is measured against (the tip's 5 days). */
export const TRUST_WINDOW_DAYS = 5;
/** Fewer answered questions than this in the period: "New on Ques", no figures. */
export const TRUST_STATS_MIN_ANSWERED = 5;
/** Entries in an owner's Atom feed (newest first). */
export const FEED_ENTRIES = 50;

/**
 * `GET /api/trust-stats/{username}` (public: `figures` null until `established`) and `GET /api/trust-stats` (the
 * owner's own, always with figures). Private questions count in the rates; nothing of them is ever shown.
 */
export interface TrustStats {
  periodDays: number;
  windowDays: number;
  /** At least TRUST_STATS_MIN_ANSWERED questions asked in the period were answered. */
  established: boolean;
  figures: TrustFigures | null;
}
export interface TrustFigures {
  /** Questions asked in the period that were answered (private ones included). */
  answered: number;
  /** Median seconds from asked to answered; null with no answer. */
  medianAnswerSeconds: number | null;
  /** Share (0..1) of the decided questions (answered, or their window over) answered within the window; null with none. */
  answeredWithinWindow: number | null;
  /** Public answers published in the period (what the profile shows). */
  publicAnswers: number;
}

/** "3 hours", "2 days", "45 minutes": a median for people. */
export function formatDuration(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds < 3600) return unit(Math.max(1, Math.round(seconds / 60)), 'minute');
  if (seconds < 48 * 3600) {
    const hours = Math.round((seconds / 3600) * 10) / 10;
    return `${Number.isInteger(hours) ? hours : hours.toFixed(1)} hour${hours === 1 ? '' : 's'}`;
  }
  const days = Math.round((seconds / 86400) * 10) / 10;
  return `${Number.isInteger(days) ? days : days.toFixed(1)} days`;
}

export const formatShare = (share: number) => `${Math.round(share * 100)}%`;

/** The schema.org figures of an established owner (in the profile's JSON-LD); null before. */
export function trustStatsJsonLd(stats: TrustStats | null | undefined): object[] | null {
  const f = stats?.established ? stats.figures : null;
  if (!f) return null;
  const value = (name: string, v: number | string, unitText?: string) => ({
    '@type': 'PropertyValue',
    name,
    value: v,
    ...(unitText ? { unitText } : {}),
  });
  return [
    ...(f.medianAnswerSeconds !== null
      ? [value('Median time to answer', Math.round(f.medianAnswerSeconds / 60), 'MIN')]
      : []),
    ...(f.answeredWithinWindow !== null
      ? [value(`Answered within ${TRUST_WINDOW_DAYS} days`, Math.round(f.answeredWithinWindow * 100), 'P1')]
      : []),
    value('Public answers', f.publicAnswers),
  ];
}

// ---- share images and feeds ----

/** Bump when the image template changes: every image URL changes with it. */
export const SHARE_IMAGE_VERSION = 1;
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;
/** Characters of the answer the image shows at most (then the layout clamps to its lines). */
export const SHARE_ANSWER_CHARS = 280;
export const SHARE_QUESTION_CHARS = 200;

/**
 * A 64-bit FNV-1a of the text (two 32-bit halves), as 16 hex digits. Not cryptographic: it names an image by what it
 * shows so a change makes a new URL (immutable caching); the image route recomputes it from the live data.
 */
export function contentHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 7), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

export type ShareProfileFields = Pick<PublicProfile, 'username' | 'name' | 'bio' | 'avatarUrl'> &
  Partial<Pick<PublicProfile, 'brandColorMain' | 'brandColorLight' | 'archiveProfile'>>;
export type ShareAnswerFields = Pick<PublicQuestion, '_id' | 'question' | 'answer'>;

const clip = (text: string | undefined, max: number) => {
  const clean = (text ?? '').replace(/\s+/g, ' ').trim();
  return [...clean].length <= max ? clean : `${[...clean].slice(0, max - 1).join('').trimEnd()}…`;
};

/** What an answer's image shows (its hash is over exactly this). */
export function answerCard(profile: ShareProfileFields, q: ShareAnswerFields) {
  return card('answer', profile, clip(q.question, SHARE_QUESTION_CHARS), clip(q.answer, SHARE_ANSWER_CHARS));
}

/** What the profile's image shows. */
export function profileCard(profile: ShareProfileFields) {
  return card('profile', profile, '', clip(profile.bio, SHARE_ANSWER_CHARS));
}

/** A card's fields: its kind and text, then the profile's name, colours and badge. */
function card<K extends 'answer' | 'profile'>(kind: K, profile: ShareProfileFields, question: string, answer: string) {
  return {
    kind,
    v: SHARE_IMAGE_VERSION,
    question,
    answer,
    name: clip(profile.name, 80),
    username: profile.username.toLowerCase(),
    avatarUrl: profile.avatarUrl ?? '',
    main: profile.brandColorMain ?? '',
    light: profile.brandColorLight ?? '',
    archive: Boolean(profile.archiveProfile),
  };
}
export type ShareCard = ReturnType<typeof answerCard> | ReturnType<typeof profileCard>;

export const shareCardHash = (card: ShareCard) => contentHash(JSON.stringify(card));

/** `/share/answer/{id}/{hash}.png`: immutable (a change of what it shows is a new hash). */
export const answerImagePath = (profile: ShareProfileFields, q: ShareAnswerFields) =>
  `/share/answer/${encodeURIComponent(q._id.toLowerCase())}/${shareCardHash(answerCard(profile, q))}.png`;
/** `/share/profile/{username}/{hash}.png`. */
export const profileImagePath = (profile: ShareProfileFields) =>
  `/share/profile/${encodeURIComponent(profile.username.toLowerCase())}/${shareCardHash(profileCard(profile))}.png`;

/** The owner's Atom feed of public answers (a stable URL). */
export const feedPath = (username: string) => `/ask/${encodeURIComponent(username.toLowerCase())}/feed.atom`;
