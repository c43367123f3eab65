import { formatDate } from '../../lib/text';
import { dollarsToCents, feeBreakdown, formatCents, formatDollars, GUEST_USERNAME, type Question } from '@ques/contracts/core';
import type { ListRole } from './api';

/** Spec §4: Pending until answered, anything else afterwards. */
export function isPending(q: Question): boolean {
  if (q.status) return q.status === 'Pending';
  return !q.answer?.trim();
}

/** The asker withdrew it (issue 14): the owner's inbox still lists it, with nothing left to do but delete it. */
export const isWithdrawn = (q: Question): boolean => q.status === 'Withdrawn';

export const questionId = (q: Question) => q._id || q.id || '';

const newestFirst = (a: Question, b: Question) => Date.parse(b.createdAt) - Date.parse(a.createdAt);
const same = (a: string | undefined, b: string | undefined) =>
  Boolean(a) && Boolean(b) && a!.trim().toLowerCase() === b!.trim().toLowerCase();

export interface Me {
  username: string;
  email: string;
}

/**
 * Spec §5 "Lists", applied to what the server returned for the role (which already scopes it): inbox without curated
 * and deleted, addressed to me; asked without curated, mine by username or as a guest with my e-mail; curated
 * addressed to me. Newest first.
 */
export function listFor(role: ListRole, items: readonly Question[], me: Me): Question[] {
  let kept: Question[];
  switch (role) {
    case 'receiver':
      kept = items.filter((q) => !q.isCurated && !q.deletedByReceiver && same(q.toUsername, me.username));
      break;
    case 'asker':
      kept = items.filter(
        (q) =>
          !q.isCurated &&
          (same(q.fromUsername, me.username) ||
            ((q.fromUsername ?? GUEST_USERNAME) === GUEST_USERNAME && same(q.askedEmail || q.yourEmail, me.email))),
      );
      break;
    case 'curated':
      kept = items.filter((q) => q.isCurated && !q.deletedByReceiver && same(q.toUsername, me.username));
      break;
    default: {
      const never: never = role;
      return never;
    }
  }
  return kept.sort(newestFirst);
}

/** Who asked (inbox): the name they gave, else their username. */
export function askerName(q: Question): string {
  return q.askedName || q.yourName || (q.fromUsername && q.fromUsername !== GUEST_USERNAME ? q.fromUsername : 'Guest');
}

/** Who was asked (asked list). */
export function recipientLabel(q: Question): string {
  return q.recipientName || q.toUsername || '';
}

/** The other party's name and username, as search terms. */
function otherParty(role: ListRole, q: Question): string[] {
  switch (role) {
    case 'receiver':
      return [q.askedName ?? '', q.yourName ?? '', q.fromUsername ?? ''];
    case 'asker':
      return [q.recipientName ?? '', q.toUsername ?? ''];
    case 'curated':
      return [];
    default: {
      const never: never = role;
      return never;
    }
  }
}

/**
 * Spec §5 search: question text, the date string (as shown, and as yyyy-mm-dd), and the other party's username or
 * name, case-insensitive.
 */
export function matchesSearch(role: ListRole, q: Question, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [q.question, formatDate(q.createdAt), (q.createdAt ?? '').slice(0, 10), ...otherParty(role, q)];
  return haystack.some((text) => (text ?? '').toLowerCase().includes(needle));
}

// ---- tips ----

export type TipTone = 'held' | 'capturing' | 'captured' | 'released' | 'awaiting';

export interface TipView {
  amount: string;
  state: string;
  tone: TipTone;
  /** Time left before a held tip is released, or what happened to it. */
  detail?: string;
}

/** "4d 23h", "5h 12m", "12m", "under a minute". */
export function formatTimeLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${mins}m`;
  return `${mins}m`;
}

/** What the Tip column shows; null without a tip. */
export function tipView(q: Question, now: number): TipView | null {
  const tip = typeof q.tip === 'number' ? q.tip : 0;
  if (!(tip > 0)) return null;
  const amount = formatDollars(tip);
  if (q.answerWindowExpired) return { amount, state: 'Released', tone: 'released', detail: 'Unanswered in 5 days, never charged' };
  switch (q.tipStatus) {
    case 'released':
      return { amount, state: 'Released', tone: 'released', detail: 'Never charged' };
    case 'captured':
      return { amount, state: 'Captured', tone: 'captured' };
    case 'capturing':
      return { amount, state: 'Capturing', tone: 'capturing' };
    case 'awaiting_authorization':
      return { amount, state: 'Awaiting payment', tone: 'awaiting' };
    case 'held':
    case 'none':
    case undefined: {
      if (!isPending(q)) return { amount, state: 'Capturing', tone: 'capturing' };
      const deadline = q.answerDeadline ? Date.parse(q.answerDeadline) : NaN;
      if (Number.isNaN(deadline)) return { amount, state: 'Held', tone: 'held' };
      const left = deadline - now;
      return {
        amount,
        state: 'Held',
        tone: 'held',
        detail: left > 0 ? `Releases in ${formatTimeLeft(left)}` : 'Being released',
      };
    }
    default: {
      const never: never = q.tipStatus;
      return never;
    }
  }
}

/**
 * Spec §4: a pending question with a tip gets its payment cancelled before it is deleted. Not when the hold is
 * already gone (released, or it expired unanswered).
 */
export function needsCancelPayment(q: Question): boolean {
  const tip = typeof q.tip === 'number' ? q.tip : 0;
  return isPending(q) && tip > 0 && q.tipStatus !== 'released' && !q.answerWindowExpired;
}

/** Spec §4: after answering a tipped question the payment is finalized (not when the tip was already released). */
export function needsFinalize(q: Question): boolean {
  const tip = typeof q.tip === 'number' ? q.tip : 0;
  return tip > 0 && q.tipStatus !== 'released' && q.tipStatus !== 'captured' && !q.answerWindowExpired;
}

/** The owner's part of a captured tip of `tipDollars` (the fee deducted, spec §3): "$4.50" for a $5 tip. */
export function ownerShare(tipDollars: number): string {
  return formatCents(feeBreakdown(dollarsToCents(tipDollars) ?? 0).ownerCents);
}

/** The status filter of the wide lists: every question, or those of one status (the table's Status column). */
export type StatusFilter = 'all' | 'pending' | 'answered' | 'withdrawn';

export function matchesStatus(q: Question, status: StatusFilter): boolean {
  if (status === 'all') return true;
  if (status === 'withdrawn') return isWithdrawn(q);
  if (isWithdrawn(q)) return false;
  return status === 'pending' ? isPending(q) : !isPending(q);
}
