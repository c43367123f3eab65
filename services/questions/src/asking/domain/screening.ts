import { ASKING_LIMITS, ASKING_MESSAGES } from '@ques/contracts';
import { findBlocked, type CompiledEntry } from './word-filter.js';

/*
 * Whether a question may be sent to its owner (issue 16), decided before anything is stored or any card is held.
 * Pure: the caller reads the facts, this says yes or why not, in the asker's words.
 */

export interface ScreeningFacts {
  now: Date;
  ownerName: string;
  pausedUntil: Date | null;
  pauseNote: string;
  pendingCap: number | null;
  /** The owner's open (pending) questions. */
  openQuestions: number;
  /** The asker matches one of the owner's blocks (account, e-mail or device). */
  blocked: boolean;
  /** The owner's entries and, when switched on, the built-in list. */
  filter: readonly CompiledEntry[];
  question: string;
  detail: string;
  /**
   * A guest's questions to this owner in the last day, in the fullest of its buckets (device — a missing one is a
   * bucket of its own —, normalised e-mail, network; ADR 0054); null for signed-in askers.
   */
  guestAsksToday: number | null;
}

export type Screening = { ok: true } | { ok: false; status: 422 | 429; message: string; reason: RefusalReason };
export type RefusalReason = 'paused' | 'cap' | 'blocked' | 'filtered' | 'guest-limit';

/** A pause is over once its date has passed (resuming needs nothing else). */
export const isPaused = (pausedUntil: Date | null, now: Date): pausedUntil is Date =>
  pausedUntil !== null && pausedUntil.getTime() > now.getTime();

export function screen(f: ScreeningFacts): Screening {
  const refuse = (reason: RefusalReason, message: string, status: 422 | 429 = 422): Screening => ({
    ok: false,
    status,
    message,
    reason,
  });
  // Pause and cap first: they say the same to everyone, so they reveal nothing about blocks or filters.
  if (isPaused(f.pausedUntil, f.now)) return refuse('paused', ASKING_MESSAGES.paused(f.ownerName, f.pausedUntil.toISOString()));
  if (f.pendingCap !== null && f.openQuestions >= f.pendingCap) return refuse('cap', ASKING_MESSAGES.atCap(f.ownerName));
  // A blocked asker and a filtered question get the same neutral sentence.
  if (f.blocked) return refuse('blocked', ASKING_MESSAGES.refused(f.ownerName));
  if (findBlocked(f.question, f.filter) !== null || findBlocked(f.detail, f.filter) !== null)
    return refuse('filtered', ASKING_MESSAGES.refused(f.ownerName));
  if (f.guestAsksToday !== null && f.guestAsksToday >= ASKING_LIMITS.guestAsksPerDevicePerDay)
    return refuse('guest-limit', ASKING_MESSAGES.guestLimit(f.ownerName), 429);
  return { ok: true };
}
