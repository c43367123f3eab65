import { describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@ques/contracts';
import { requireTipAccess, rolesOf } from './access.js';

const recipient = '11111111-1111-4111-8111-111111111111';
const asker = '22222222-2222-4222-8222-222222222222';
const stranger = '33333333-3333-4333-8333-333333333333';
const tip = { recipientUserId: recipient, askerUserId: asker };
const guestTip = { recipientUserId: recipient, askerUserId: null };

describe('the tip access rule (the kit’s requireAccess)', () => {
  it('names the roles of a user on a tip', () => {
    expect(rolesOf(tip, recipient)).toEqual(['recipient']);
    expect(rolesOf(tip, asker)).toEqual(['asker']);
    expect(rolesOf(tip, stranger)).toEqual([]);
    expect(rolesOf(guestTip, asker)).toEqual([]);
  });

  it('lets the allowed parties act, gives the other party a 403 and anyone else (or no tip) a 404', () => {
    const forbidden = PAYMENT_MESSAGES.onlyRecipientFinalizes;
    expect(requireTipAccess(tip, recipient, ['recipient'], forbidden)).toBe(tip);
    expect(requireTipAccess(tip, asker, ['recipient', 'asker'], forbidden)).toBe(tip);
    expect(() => requireTipAccess(tip, asker, ['recipient'], forbidden)).toThrow(
      expect.objectContaining({ status: 403, message: forbidden }),
    );
    for (const [t, who] of [
      [tip, stranger],
      [guestTip, asker],
      [undefined, recipient],
    ] as const)
      expect(() => requireTipAccess(t, who, ['recipient', 'asker'], forbidden)).toThrow(
        expect.objectContaining({ status: 404, message: PAYMENT_MESSAGES.paymentNotFound }),
      );
  });
});
