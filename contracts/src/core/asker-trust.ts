import { formatCents } from './money.js';
import { applicationFeeCents, PLATFORM_FEE_PERCENT } from './payments.js';
import { ANSWER_WINDOW_DAYS } from './questions.js';

/*
 * Asker trust (issue 14): the fee breakdown shown before paying, and the private status page's constants. Zod-free:
 * the ask modal, the test-mode checkout page and the Stripe Checkout Session all take their wording from here.
 */

/** The status page's path: `/q/{token}`. */
export const STATUS_PAGE_PATH = '/q/';
/** A status token: 32 random bytes, base64url (43 characters, 256 bits). Anything else is a 404. */
export const STATUS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const isStatusToken = (token: string) => STATUS_TOKEN_PATTERN.test(token);
/**
 * The page right after asking or paying (issue 28): the status page with its confirmation (amount held, fee split,
 * release date, what happens next, the link to keep). Payments sends the checkout back here.
 */
export const statusConfirmationPath = (token: string) => `${STATUS_PAGE_PATH}${token}?confirmed=1`;

/** The steps of a status page's timeline (issue 28), in the order they can happen. */
export const STATUS_STEPS = [
  'asked',
  'held',
  'answered',
  'charged',
  'withdrawn',
  'deleted',
  'expired',
  'released',
] as const;
export type StatusStep = (typeof STATUS_STEPS)[number];

export const STATUS_MESSAGES = {
  notFound: 'This status page does not exist. Check the link in your e-mail.',
  onlyAsker: 'Only the person who asked this question can open its status page.',
} as const;

/** The parts of the breakdown of a one-time tip of `amountCents`. */
export function feeBreakdown(amountCents: number) {
  const fee = applicationFeeCents(amountCents);
  return {
    ownerCents: amountCents - fee,
    feeCents: fee,
    feePercent: PLATFORM_FEE_PERCENT,
    releaseDays: ANSWER_WINDOW_DAYS,
  };
}

/**
 * "{name} receives $4.50 · Ques fee (10 %) $0.50 · Your card is held, not charged, until {name} answers; released
 * automatically after 5 days. One-time tip, never recurring." — the same sentence everywhere before paying.
 */
export function feeBreakdownText(name: string, amountCents: number, currency = 'usd'): string {
  const b = feeBreakdown(amountCents);
  return (
    `${name} receives ${formatCents(b.ownerCents, currency)} · Ques fee (${b.feePercent} %) ${formatCents(b.feeCents, currency)} · ` +
    `Your card is held, not charged, until ${name} answers; released automatically after ${b.releaseDays} days. ` +
    'One-time tip, never recurring.'
  );
}

/** "$5.00 held · $4.50 to Mira · $0.50 Ques fee": the confirmation's money line (issue 28). */
export function heldSplitText(name: string, amountCents: number, currency = 'usd'): string {
  const b = feeBreakdown(amountCents);
  return `${formatCents(amountCents, currency)} held · ${formatCents(b.ownerCents, currency)} to ${name} · ${formatCents(b.feeCents, currency)} Ques fee`;
}

/** "3 d 4 h" until `deadline` (never negative). */
export function countdownText(deadline: Date, now: Date): string {
  const ms = Math.max(0, deadline.getTime() - now.getTime());
  const days = Math.floor(ms / 86_400_000);
  const hours = Math.floor((ms % 86_400_000) / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  return days > 0 ? `${days} d ${hours} h` : hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}
