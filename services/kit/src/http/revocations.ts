import { sql, type Kysely, type Migration } from 'kysely';
import { IdentityEvents, type Context } from '@ques/contracts';
import type { ConsumerDefinition } from '../events/consumer.js';
import type { Clock } from '../events/types.js';

/**
 * Session revocation outside identity (ADR 0015). Identity publishes `SessionsRevoked` (logout, password change or
 * reset, refresh-token reuse, account deletion) through its outbox; every other service that verifies access tokens
 * keeps the revoked session ids in its own schema (this consumer) and `requireUser` refuses a token whose `sid` is
 * there — one primary-key lookup per authenticated request.
 */

/**
 * The table, frozen: plain SQL that imports nothing from live kit code, listed last in each token-verifying service's
 * migration index. Change it with a new migration, never by editing this one.
 */
export const kitRevocationsMigration: Migration = {
  async up(db: Kysely<any>) {
    for (const statement of [
      `CREATE TABLE revoked_sessions (
         session_id text PRIMARY KEY,
         user_id text NOT NULL,
         reason text NOT NULL,
         revoked_at timestamptz NOT NULL,
         recorded_at timestamptz NOT NULL DEFAULT now()
       )`,
      // Rows are dropped once no token of the session can still be alive; the purge reads by age.
      `CREATE INDEX revoked_sessions_recorded_at ON revoked_sessions (recorded_at)`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};

/**
 * How long a revoked session id is kept. Tokens of a revoked session are never issued again (identity refuses its
 * refresh tokens), so after the access-token lifetime (15 minutes) nothing can carry it; a day is a wide margin.
 */
export const REVOCATION_RETENTION_MS = 24 * 3600_000;

/** The kit's message for a token whose session has ended (the same words identity uses). */
export const SESSION_ENDED = 'Session has ended, please log in again';

/** Identity's stream: where the revocations come from. */
export const REVOCATIONS_CONTEXT: Context = 'identity';

/**
 * The consumer every token-verifying service runs (startService registers it): each `SessionsRevoked` becomes rows in
 * `revoked_sessions`, in the transaction that marks the event processed.
 */
export function revocationsConsumer(service: string, clock: Clock = () => new Date()): ConsumerDefinition {
  return {
    durable: `${service}--revocations`,
    context: REVOCATIONS_CONTEXT,
    handlers: {
      SessionsRevoked: {
        schema: IdentityEvents.SessionsRevoked.schema,
        effect: async (trx, envelope) => {
          const data = envelope.data as { userId: string; sessionIds: string[]; reason: string; revokedAt: string };
          const now = clock();
          await trx
            .insertInto('revoked_sessions')
            .values(
              data.sessionIds.map((sessionId) => ({
                session_id: sessionId,
                user_id: data.userId,
                reason: data.reason,
                revoked_at: new Date(data.revokedAt),
                recorded_at: now,
              })),
            )
            .onConflict((oc) => oc.column('session_id').doNothing())
            .execute();
          // Opportunistic purge: revocations arrive far more rarely than requests, and the index makes this cheap.
          await trx
            .deleteFrom('revoked_sessions')
            .where('recorded_at', '<', new Date(now.getTime() - REVOCATION_RETENTION_MS))
            .execute();
        },
      },
    },
  };
}

/** Answers "has this session been revoked?" for `requireUser`. */
export interface RevocationCheck {
  isRevoked(sessionId: string): Promise<boolean>;
}

/** The read-model check: one primary-key lookup in the service's own schema. */
export function revocationReadModel(db: Kysely<any>): RevocationCheck {
  return {
    async isRevoked(sessionId) {
      const row = await db.selectFrom('revoked_sessions').select('session_id').where('session_id', '=', sessionId).executeTakeFirst();
      return row !== undefined;
    },
  };
}

/** Fails fast at start when a service verifies tokens but forgot to list `kitRevocationsMigration`. */
export async function assertRevocationsTable(db: Kysely<any>, service: string): Promise<void> {
  const { rows } = await sql<{ present: boolean }>`SELECT to_regclass('revoked_sessions') IS NOT NULL AS present`.execute(db);
  if (!rows[0]?.present) {
    throw new Error(`${service} verifies access tokens but has no revoked_sessions table: list kitRevocationsMigration last in its migrations`);
  }
}
