import { sql, type RawBuilder } from 'kysely';
import { isDeviceToken } from '@ques/contracts';
import { networkPrefix, normaliseEmail } from './domain/guest-buckets.js';
import type { Ask } from './asking.js';
import { ownerHash } from './owner-hash.js';

/*
 * The guest limit (issue 33, ADR 0054): a guest's asks to one owner per rolling day, counted in three buckets —
 * the device token (a missing or malformed one is the no-device bucket, not a pass), the normalised e-mail and the
 * network prefix (IPv4 /24, IPv6 /64, from the trusted proxy chain) — and refused when any bucket is at the limit.
 */

/** A guest's typed address, normalised (`+tags`, case, Gmail dots): what the limit and the blocks compare. */
export const typedEmailOf = (ask: Ask): string | null => (ask.guestEmail?.trim() ? normaliseEmail(ask.guestEmail) : null);

/** The asker's device and network, hashed for this owner. */
export function guestHashes(ownerId: string, ask: Ask): { deviceHash: string | null; networkHash: string | null } {
  const network = networkPrefix(ask.network);
  return {
    deviceHash: isDeviceToken(ask.device) ? ownerHash(ownerId, 'device', ask.device) : null,
    networkHash: network ? ownerHash(ownerId, 'network', network) : null,
  };
}

/** The fullest bucket's count, as a subquery of `ownerRead`'s statement (its owner row is `r`). */
export function guestAsksSql(b: { deviceHash: string | null; emailHash: string | null; networkHash: string | null; since: Date }): RawBuilder<number> {
  return sql<number>`SELECT GREATEST(
      count(*) FILTER (WHERE o.device_hash IS NOT DISTINCT FROM ${b.deviceHash}),
      count(*) FILTER (WHERE o.email_hash = ${b.emailHash}),
      count(*) FILTER (WHERE o.network_hash = ${b.networkHash}))
    FROM question_origins o JOIN questions q ON q.id = o.question_id
    WHERE o.owner_id = r.user_id AND o.guest AND o.created_at > ${b.since}`;
}
