import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
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

/**
 * Refresh-token families: a login starts a family; each refresh spends the presented token and issues the next.
 * Presenting a spent token means it was copied — the whole family is revoked (OAuth 2.1 reuse detection).
 */
export class Sessions {
  constructor(
    private readonly db: Kysely<IdentityDB>,
    private readonly clock: () => Date,
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

  async rotate(presented: string): Promise<IssuedRefresh> {
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
        await trx
          .updateTable('session_families')
          .set({ revoked_at: now, revoked_reason: 'refresh token reused' })
          .where('id', '=', row.family_id)
          .execute();
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

  async revokeFamily(familyId: string, reason: string): Promise<void> {
    await this.db
      .updateTable('session_families')
      .set({ revoked_at: this.clock(), revoked_reason: reason })
      .where('id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeByToken(presented: string, reason: string): Promise<void> {
    const row = await this.db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', hashToken(presented)).executeTakeFirst();
    if (row) await this.revokeFamily(row.family_id, reason);
  }

  /** Ends every session of a user except `keepFamilyId` (password change) or all of them. */
  async revokeAllForUser(userId: string, reason: string, keepFamilyId?: string): Promise<void> {
    let query = this.db
      .updateTable('session_families')
      .set({ revoked_at: this.clock(), revoked_reason: reason })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keepFamilyId) query = query.where('id', '!=', keepFamilyId);
    await query.execute();
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
