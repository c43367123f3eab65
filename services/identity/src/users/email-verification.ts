import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  EMAIL_VERIFICATION_TTL_HOURS,
  IDENTITY_MESSAGES as M,
  MAILS_PER_ADDRESS_PER_DAY,
  VERIFICATION_MAILS_PER_ACCOUNT_PER_DAY,
  VERIFICATION_MAILS_PER_HOUR,
} from '@ques/contracts';
import { badRequest, conflict, mailBucket, notFound, scheduleJob, takeMailQuota, tooManyRequests, type Clock, type EventMetadata, type JobHandler, type Logger, type Mailer } from '@ques/kit';
import { verificationMail } from '../mails.js';
import type { IdentityDB } from '../db/schema.js';
import type { UserCommands } from './commands.js';
import { userStreamId } from './domain/user.js';
import type { UsersReadModel } from './read-models/users.js';

export const VERIFICATION_MAIL_JOB = 'email-verification-mail';
/** The mail caps' kind of a verification mail (ADR 0060). */
export const VERIFICATION_MAIL = 'verification';
const TTL_MS = EMAIL_VERIFICATION_TTL_HOURS * 3_600_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface EmailVerificationDeps {
  db: Kysely<IdentityDB>;
  commands: UserCommands;
  users: UsersReadModel;
  clock: Clock;
  log: Logger;
  mailer: Mailer | null;
  /** The web app's origin, for the link. */
  publicOrigin: string;
}

/**
 * E-mail verification (ADR 0021). A mail is queued (a durable job, in the transaction that registers the account or
 * changes its address) as a row naming the address it proves; the job mints the link's token, stores only its
 * SHA-256 and mails the link, so the token exists nowhere but in the mail. Opening the link (`confirm`) spends the
 * row once, within 24 hours, and records EmailVerified if the address is still the account's.
 */
export class EmailVerification {
  constructor(private readonly deps: EmailVerificationDeps) {}

  /**
   * Queues a verification mail for `email`, inside the caller's transaction. Bounded mail (issue 33, ADR 0054, 0060):
   * an address nobody proved yet gets at most `MAILS_PER_ADDRESS_PER_DAY` of them a UTC day, whichever accounts ask
   * and however the address is spelled (case, `+tags`, Gmail dots), and an account asks for at most
   * `VERIFICATION_MAILS_PER_ACCOUNT_PER_DAY` — a 429 that undoes the caller's change (and the count) with it.
   */
  async queue(trx: Kysely<IdentityDB>, userId: string, email: string): Promise<void> {
    const now = this.deps.clock();
    const address = { kind: VERIFICATION_MAIL, bucket: mailBucket.address(email), limit: MAILS_PER_ADDRESS_PER_DAY };
    const account = { kind: VERIFICATION_MAIL, bucket: mailBucket.account(userId), limit: VERIFICATION_MAILS_PER_ACCOUNT_PER_DAY };
    const over = await takeMailQuota(trx, [address, account], now);
    if (over) throw tooManyRequests(over === account ? M.tooManyMailsForAccount : M.tooManyMailsToAddress);
    const id = randomUUID();
    await trx
      .insertInto('email_verifications')
      // A placeholder hash nobody holds the token of: the job replaces it when it mints the mailed token.
      .values({ id, token_hash: sha256(randomBytes(32).toString('base64url')), user_id: userId, email, created_at: now, expires_at: new Date(now.getTime() + TTL_MS) })
      .execute();
    await scheduleJob(trx, { kind: VERIFICATION_MAIL_JOB, key: `email-verification:${id}`, dueAt: now, payload: { verificationId: id } });
  }

  /** The account's address changes in the last day: its `ProfileUpdated` events whose `changed` names the e-mail. */
  async emailChangesToday(userId: string): Promise<number> {
    const { n } = await this.deps.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('stream_id', '=', userStreamId(userId))
      .where('type', '=', 'ProfileUpdated')
      .where(sql<boolean>`data->'changed' ? 'email'`)
      .where('recorded_at', '>', new Date(this.deps.clock().getTime() - DAY_MS))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** `POST /api/users/verify-email/resend`: a new link to the account's address, at most 5 an hour. */
  async resend(userId: string): Promise<{ message: string }> {
    const { db, users, clock } = this.deps;
    const row = await users.byId(userId);
    if (!row) throw notFound(M.userNotFound);
    if (row.email_verified) throw conflict(M.alreadyVerified);
    const since = new Date(clock().getTime() - HOUR_MS);
    return db.transaction().execute(async (trx) => {
      // One resend at a time per account, so the count below cannot be raced past.
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      const { n } = await trx
        .selectFrom('email_verifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      if (Number(n) >= VERIFICATION_MAILS_PER_HOUR) throw tooManyRequests(M.tooManyVerifications);
      await this.queue(trx, userId, row.email);
      return { message: M.verificationSent };
    });
  }

  /** `POST /api/users/verify-email`: spends the link's token (once, unexpired) and proves the address. */
  async confirm(token: string, metadata: (userId: string) => EventMetadata): Promise<{ message: string }> {
    const { db, commands, clock } = this.deps;
    const now = clock();
    const row = await db
      .selectFrom('email_verifications')
      .select(['id', 'user_id', 'email'])
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) throw badRequest(M.verifyFailed);
    await commands.handle(row.user_id, { type: 'VerifyEmail', data: { email: row.email, now } }, metadata(row.user_id), {
      // Claimed in the same transaction: two clicks racing verify once, and a refused command spends nothing.
      alongside: async (trx) => {
        const claimed = await trx
          .updateTable('email_verifications')
          .set({ used_at: now })
          .where('id', '=', row.id)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw badRequest(M.verifyFailed);
      },
    });
    return { message: M.verified };
  }

  /** Erases an account's verification rows (account deletion). */
  async forget(trx: Kysely<IdentityDB>, userId: string): Promise<void> {
    await trx.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
  }

  /** The job: mint the token, keep its hash, mail the link (a failed send rolls back and is retried). */
  readonly sendJob: JobHandler<IdentityDB> = async (trx, job) => {
    const { verificationId } = job.payload as { verificationId: string };
    const { clock, log, mailer, publicOrigin } = this.deps;
    const row = await trx.selectFrom('email_verifications').selectAll().where('id', '=', verificationId).where('used_at', 'is', null).executeTakeFirst();
    if (!row) return;
    const user = await trx.selectFrom('users').select(['name', 'email', 'email_verified']).where('id', '=', row.user_id).executeTakeFirst();
    // The account is gone, its address changed since, or it is verified already: nothing to prove.
    if (!user || user.email !== row.email || user.email_verified) return;
    if (!mailer) {
      log.warn({ verificationId }, 'this identity instance sends no e-mail: verification mail skipped');
      return;
    }
    const token = randomBytes(32).toString('base64url');
    const now = clock();
    await trx
      .updateTable('email_verifications')
      .set({ token_hash: sha256(token), expires_at: new Date(now.getTime() + TTL_MS) })
      .where('id', '=', row.id)
      .execute();
    const link = `${publicOrigin}/verify-email?token=${encodeURIComponent(token)}`;
    await mailer.send(verificationMail({ to: row.email, name: user.name, link, verificationId: row.id }));
  };
}
