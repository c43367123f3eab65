import type { Kysely } from 'kysely';
import { forbidden } from '@ques/kit';
import type { SupportDB } from '../db/schema.js';
import { CAPTCHA_MESSAGES, type VerifiedCaptcha } from './captcha.js';

/**
 * Spends a solved challenge inside the transaction that records the request: if the request commits, the challenge
 * can never be used again; if it rolls back, the challenge is still good. A concurrent submission of the same
 * payload waits on the primary key and then finds it taken.
 */
export async function spendCaptcha(trx: Kysely<SupportDB>, captcha: VerifiedCaptcha, now: Date): Promise<void> {
  const inserted = await trx
    .insertInto('used_captchas')
    .values({ challenge_hash: captcha.replayKey, expires_at: captcha.expiresAt, used_at: now })
    .onConflict((oc) => oc.column('challenge_hash').doNothing())
    .returning('challenge_hash')
    .executeTakeFirst();
  if (!inserted) throw forbidden(CAPTCHA_MESSAGES.replayed);
  // An expired challenge is refused on its expiry alone, so its replay record is no longer needed.
  await trx.deleteFrom('used_captchas').where('expires_at', '<', now).execute();
}
