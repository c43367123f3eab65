import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { IdentityEvents, SESSIONS_PER_REVOCATION_EVENT } from '@ques/contracts';
import { enqueueOperationalEvent, type Database } from '@ques/kit';
import { unauthorized } from '@ques/kit/errors';
import type { IdentityDB } from '../db/schema.js';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** 256 random bits; only its SHA-256 is stored, so a database leak yields no usable token. */
const newRefreshToken = () => randomBytes(32).toString('base64url');

export interface IssuedRefresh {
  familyId: string;
  userId: string;
  refreshToken: string;
}

export interface RevokedSessions {
  userId: string;
  sessionIds: string[];
  reason: string;
  revokedAt: Date;
  correlationId: string;
}

/** Tells the other services that sessions ended, inside the transaction that ends them. */
export type AnnounceRevoked = (trx: Kysely<IdentityDB>, revoked: RevokedSessions) => Promise<void>;

/** The request a revocation serves (for the correlation id), and the transaction to join when it is part of a larger change. */
export interface RevokeBy {
  correlationId: string;
  trx?: Kysely<IdentityDB>;
}

/**
 * Identity's announcer: `SessionsRevoked` through the outbox (ADR 0017), so every service refuses the sessions' access
 * tokens within a second of the commit, and never hears of a revocation that rolled back.
 */
export function outboxAnnouncer(database: Pick<Database, 'schema'>): AnnounceRevoked {
  return async (trx, revoked) => {
    for (let i = 0; i < revoked.sessionIds.length; i += SESSIONS_PER_REVOCATION_EVENT) {
      await enqueueOperationalEvent(trx, database, {
        context: 'identity',
        type: 'SessionsRevoked',
        version: IdentityEvents.SessionsRevoked.version,
        streamId: `sessions-${revoked.userId}`,
        data: {
          userId: revoked.userId,
          sessionIds: revoked.sessionIds.slice(i, i + SESSIONS_PER_REVOCATION_EVENT),
          reason: revoked.reason,
          revokedAt: revoked.revokedAt.toISOString(),
        },
        occurredAt: revoked.revokedAt,
        correlationId: revoked.correlationId,
      });
    }
  };
}

/**
 * Refresh-token families: a login starts a family; each refresh spends the presented token and issues the next.
 * Presenting a spent token means it was copied — the whole family is revoked (OAuth 2.1 reuse detection).
 */
export class Sessions {
  constructor(
    private readonly db: Kysely<IdentityDB>,
    private readonly clock: () => Date,
    private readonly announce: AnnounceRevoked = async () => {},
  ) {}

  async start(userId: string): Promise<IssuedRefresh> {
    const familyId = randomUUID();
    const now = this.clock();
    const refreshToken = newRefreshToken();
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('session_families').values({ id: familyId, user_id: userId, created_at: now }).execute();
      await trx
        .insertInto('refresh_tokens')
        .values({ token_hash: hashToken(refreshToken), family_id: familyId, issued_at: now, expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) })
        .execute();
    });
    return { familyId, userId, refreshToken };
  }

  async rotate(presented: string, correlationId: string): Promise<IssuedRefresh> {
    const now = this.clock();
    const invalid = () => unauthorized('Invalid or expired refresh token');
    const outcome = await this.db.transaction().execute(async (trx) => {
      const row = (await trx
        .selectFrom('refresh_tokens as t')
        .innerJoin('session_families as f', 'f.id', 't.family_id')
        .select(['t.token_hash', 't.family_id', 't.expires_at', 't.used_at', 'f.user_id', 'f.revoked_at'])
        .where('t.token_hash', '=', hashToken(presented))
        .forUpdate()
        .executeTakeFirst());
      if (!row || row.revoked_at) return { ok: false as const };
      if (row.used_at) {
        const revoked = await trx
          .updateTable('session_families')
          .set({ revoked_at: now, revoked_reason: 'refresh token reused' })
          .where('id', '=', row.family_id)
          .returning(['id', 'user_id'])
          .execute();
        await this.announceEach(trx, revoked, 'refresh token reused', now, correlationId);
        return { ok: false as const, reused: true };
      }
      if (new Date(row.expires_at) <= now) return { ok: false as const };
      await trx.updateTable('refresh_tokens').set({ used_at: now }).where('token_hash', '=', row.token_hash).execute();
      const next = newRefreshToken();
      await trx
        .insertInto('refresh_tokens')
        .values({ token_hash: hashToken(next), family_id: row.family_id, issued_at: now, expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) })
        .execute();
      return { ok: true as const, issued: { familyId: row.family_id, userId: row.user_id, refreshToken: next } };
    });
    // The revocation above must commit, so the 401 is thrown only after the transaction.
    if (!outcome.ok) throw invalid();
    return outcome.issued;
  }

  async revokeFamily(familyId: string, reason: string, by: RevokeBy): Promise<void> {
    const now = this.clock();
    await this.within(by, async (trx) => {
      const revoked = await trx
        .updateTable('session_families')
        .set({ revoked_at: now, revoked_reason: reason })
        .where('id', '=', familyId)
        .where('revoked_at', 'is', null)
        .returning(['id', 'user_id'])
        .execute();
      await this.announceEach(trx, revoked, reason, now, by.correlationId);
    });
  }

  async revokeByToken(presented: string, reason: string, by: RevokeBy): Promise<void> {
    const row = await this.db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', hashToken(presented)).executeTakeFirst();
    if (row) await this.revokeFamily(row.family_id, reason, by);
  }

  /** Ends every session of a user except `keepFamilyId` (password change) or all of them. */
  async revokeAllForUser(userId: string, reason: string, by: RevokeBy & { keepFamilyId?: string }): Promise<void> {
    const now = this.clock();
    await this.within(by, async (trx) => {
      let query = trx
        .updateTable('session_families')
        .set({ revoked_at: now, revoked_reason: reason })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (by.keepFamilyId) query = query.where('id', '!=', by.keepFamilyId);
      const revoked = await query.returning(['id', 'user_id']).execute();
      await this.announceEach(trx, revoked, reason, now, by.correlationId);
    });
  }

  private within(by: RevokeBy, work: (trx: Kysely<IdentityDB>) => Promise<void>): Promise<void> {
    return by.trx ? work(by.trx) : this.db.transaction().execute(work);
  }

  /** One announcement per user whose sessions these rows ended (nothing when none did). */
  private async announceEach(trx: Kysely<IdentityDB>, rows: { id: string; user_id: string }[], reason: string, revokedAt: Date, correlationId: string): Promise<void> {
    const byUser = new Map<string, string[]>();
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.id]);
    for (const [userId, sessionIds] of byUser) await this.announce(trx, { userId, sessionIds, reason, revokedAt, correlationId });
  }

  async isActive(familyId: string): Promise<boolean> {
    const row = await this.db.selectFrom('session_families').select('revoked_at').where('id', '=', familyId).executeTakeFirst();
    return !!row && row.revoked_at === null;
  }
}

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_MAX_CHECKS = 10;

/**
 * At most LOGIN_MAX_CHECKS password checks per account per window. A slot is reserved before hashing under a
 * transaction-scoped advisory lock on the account, so parallel attempts cannot overrun the limit; a successful login
 * clears the account's slots. Nothing is locked forever: old attempts simply age out of the window.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<IdentityDB>,
    private readonly clock: () => Date,
  ) {}

  /** Reserves a check for the account; false means the limit is reached (answer 429 without hashing). */
  async reserve(accountKey: string): Promise<boolean> {
    const now = this.clock();
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${'login:' + accountKey}, 0))`.execute(trx);
      const { count } = (await trx
        .selectFrom('login_attempts')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('account_key', '=', accountKey)
        .where('attempted_at', '>', new Date(now.getTime() - LOGIN_WINDOW_MS))
        .executeTakeFirstOrThrow()) as { count: number | string };
      if (Number(count) >= LOGIN_MAX_CHECKS) return false;
      await trx.insertInto('login_attempts').values({ account_key: accountKey, attempted_at: now }).execute();
      return true;
    });
  }

  async clear(accountKey: string): Promise<void> {
    await this.db.deleteFrom('login_attempts').where('account_key', '=', accountKey).execute();
  }
}
