/*
 * The zod-free part of the questions context: the slug rule, protocol constants and the `Checked` result the rule
 * functions return (the forms' limits and messages are in question-rules.ts: a browser loads them only with the forms
 * that use them). Re-exported by `../questions.ts` and by `@ques/contracts/core`.
 */

/** Spec §1/§9: unanswered tipped questions are released after 5 days. */
export const ANSWER_WINDOW_DAYS = 5;
export const ANSWER_WINDOW_MS = ANSWER_WINDOW_DAYS * 24 * 60 * 60 * 1000;
/** Spec §5 rule 7 / §9: at least one whole dollar. */
export const MIN_TIP_CENTS = 100;
/** `fromUsername` of a guest's question (spec §3). */
export const GUEST_USERNAME = 'guest';
/**
 * Receipts (status-link mails) to one guest-typed address per UTC day, across every owner (ADR 0060): the address is
 * typed, not proven, so beyond this the question is still accepted and its receipt is not sent.
 */
export const GUEST_RECEIPTS_PER_ADDRESS_PER_DAY = 10;
/** Page size of every list when `limit` is not given: large enough to keep the spec's "one call shows all" behaviour. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;
/** Response header carrying the cursor of the next page (absent on the last page). */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/**
 * Spec §2: "the lowercased question text with punctuation removed and spaces turned into hyphens". Letters and digits
 * of every script survive, and so do hyphens ("well-known"); runs of whitespace become one hyphen; at most 120
 * characters. E-mail links, server-rendered canonical URLs and the web app's cards all use it: one answer, one URL.
 */
export function questionSlug(question: string): string {
  return question
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 120);
}
