import { PAYMENT_MESSAGES } from '@ques/contracts';
import { notFound, requireAccess } from '@ques/kit/domain';

/** The two people a tip names. */
export interface TipParties {
  recipientUserId: string;
  /** null for a guest's tip. */
  askerUserId: string | null;
}

export type TipRole = 'recipient' | 'asker';

/** What `userId` is to the tip (nothing, one role, or — never in practice — both). */
export function rolesOf(tip: TipParties, userId: string): TipRole[] {
  const roles: TipRole[] = [];
  if (tip.recipientUserId === userId) roles.push('recipient');
  if (tip.askerUserId !== null && tip.askerUserId === userId) roles.push('asker');
  return roles;
}

/**
 * The kit's one access rule applied to a tip: a party who may not do this gets a 403 with `forbidden`; anyone else
 * — and everyone when there is no such tip — the same 404 "Payment not found".
 */
export function requireTipAccess<T extends TipParties>(
  tip: T | undefined,
  userId: string,
  may: readonly TipRole[],
  forbidden: string,
): T {
  if (!tip) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
  const roles = rolesOf(tip, userId);
  requireAccess(
    roles.some((r) => may.includes(r)),
    roles.length > 0,
    { forbidden, notFound: PAYMENT_MESSAGES.paymentNotFound },
  );
  return tip;
}
