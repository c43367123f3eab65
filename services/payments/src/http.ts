import { isUuid, PAYMENT_MESSAGES, type Checked, type PaymentStatus } from '@ques/contracts';
import { badRequest, forbidden, type AccessClaims } from '@ques/kit';
import type { TipStage } from './tips/domain/tip.js';

/** The spec's validation answers: 400 with the rule's message. */
export function valid<T>(checked: Checked<T>): T {
  if (!checked.ok) throw badRequest(checked.message);
  return checked.value;
}

/** The spec's payloads carry `userId`; it may only name the caller (the token decides who acts). */
export function assertOwnUserId(given: unknown, claims: AccessClaims): void {
  if (given === undefined || given === null || given === '') return;
  if (typeof given !== 'string' || given.toLowerCase() !== claims.sub.toLowerCase())
    throw forbidden(PAYMENT_MESSAGES.onlyOwner);
}

/** A `userId` query parameter: a UUID, else 400. */
export function userIdParam(raw: unknown): string {
  if (!isUuid(raw)) throw badRequest('userId must be a user id');
  return raw.toLowerCase();
}

export const PAYMENT_STATUS: Record<TipStage, PaymentStatus> = {
  started: 'checkout',
  authorized: 'held',
  capturing: 'capturing',
  captured: 'captured',
  releasing: 'releasing',
  released: 'released',
};
