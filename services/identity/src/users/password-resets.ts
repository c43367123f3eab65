import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { IDENTITY_MESSAGES as M, RESET_MAILS_PER_ADDRESS_PER_DAY, RESET_MAILS_PER_HOUR } from '@ques/contracts';
import { badRequest, mailBucket, scheduleJob, takeMailQuota, type Clock, type EventMetadata, type JobHandler, type Logger, type Mailer } from '@ques/kit';
import { passwordResetMail } from '../mails.js';
import type { IdentityDB } from '../db/schema.js';
import { hashPassword } from '../sessions/passwords.js';
import type { Sessions } from '../sessions/sessions.js';
import type { UserCommands } from './commands.js';
import { sha256 } from './email-verification.js';
import type { UsersReadModel } from './read-models/users.js';

export const RESET_TTL_MS = 30 * 60_000;
export const RESET_MAIL_JOB = 'password-reset-mail';
/** The mail caps' kind of a reset mail (ADR 0060). */
export const RESET_MAIL = 'password-reset';
const HOUR_MS = 3_600_000;

export interface PasswordResetDeps {
  db: Kysely<IdentityDB>;
  commands: UserCommands;
  users: UsersReadModel;
  sessions: Sessions;
  clock: Clock;
  log: Logger;
  mailer: Mailer | null;
  publicOrigin: string;
}

/**
 * Password resets. A request does the same work whatever the address (one durable job queued, nothing looked up), so
 * neither the answer nor its timing says whether an account exists; the job looks the address up, keeps at most
 * RESET_MAILS_PER_HOUR mails an hour per account and RESET_MAILS_PER_ADDRESS_PER_DAY a UTC day per inbox (the address
 * normalised, so accounts made with `+tag` or dotted variants of one inbox share it; ADR 0060) — extra requests are
 * dropped silently — and mails a single-use link whose token is stored only as its SHA-256.
 */
export class PasswordResets {
  constructor(private readonly deps: PasswordResetDeps) {}

  async request(email: string): Promise<{ message: string }> {
    const now = this.deps.clock();
    await scheduleJob(this.deps.db, { kind: RESET_MAIL_JOB, key: `password-reset:${randomUUID()}`, dueAt: now, payload: { email } });
    return { message: M.resetSent };
  }

  readonly sendJob: JobHandler<IdentityDB> = async (trx, job) => {
    const { email } = job.payload as { email?: string };
    const { clock, log, mailer, publicOrigin } = this.deps;
    // The address typed (perhaps a stranger's) is not kept once handled.
    await trx.updateTable('scheduled_jobs').set({ payload: JSON.stringify({}) }).where('id', '=', job.id).execute();
    if (!email) return;
    // Inside the job's transaction (the embedded database has a single connection).
    const row = await trx.selectFrom('users').select(['id', 'name', 'email']).where('email', '=', email.toLowerCase()).executeTakeFirst();
    if (!row) return;
    const now = clock();
    const { n } = await trx
      .selectFrom('password_resets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', row.id)
      .where('created_at', '>', new Date(now.getTime() - HOUR_MS))
      .executeTakeFirstOrThrow();
    if (Number(n) >= RESET_MAILS_PER_HOUR) {
      log.info({ userId: row.id }, 'password reset mail dropped: hourly cap reached');
      return;
    }
    const inbox = { kind: RESET_MAIL, bucket: mailBucket.address(row.email), limit: RESET_MAILS_PER_ADDRESS_PER_DAY };
    if (await takeMailQuota(trx, [inbox], now)) {
      log.info({ userId: row.id }, "password reset mail dropped: the address had today's reset mails");
      return;
    }
    if (!mailer) {
      log.warn({ userId: row.id }, 'this identity instance sends no e-mail: password reset mail skipped');
      return;
    }
    const token = randomBytes(32).toString('base64url');
    await trx
      .insertInto('password_resets')
      .values({ token_hash: sha256(token), user_id: row.id, created_at: now, expires_at: new Date(now.getTime() + RESET_TTL_MS) })
      .execute();
    const link = `${publicOrigin}/reset-password-confirm?token=${encodeURIComponent(token)}`;
    await mailer.send(passwordResetMail({ to: row.email, name: row.name, link }));
  };

  async confirm(token: string, password: string, metadata: (userId: string) => EventMetadata, correlationId: string): Promise<{ message: string }> {
    const { db, users, commands, sessions, clock } = this.deps;
    const now = clock();
    // Claimed atomically: a token works once, even when two requests race.
    const claimed = await db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!claimed) throw badRequest(M.resetFailed);
    const userId = claimed.user_id;
    if (!(await users.byId(userId))) throw badRequest(M.resetFailed);
    const passwordHash = await hashPassword(password);
    // Whoever held a session (perhaps the reason for the reset) is signed out everywhere, with the change.
    await commands.handle(userId, { type: 'ChangePassword', data: { passwordHash, now } }, metadata(userId), {
      alongside: (trx) => sessions.revokeAllForUser(userId, 'password reset', { correlationId, trx }),
    });
    await db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    return { message: M.resetDone };
  }
}
