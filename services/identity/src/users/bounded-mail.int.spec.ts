import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_MESSAGES as M, MAILS_PER_ADDRESS_PER_DAY, RESET_MAILS_PER_ADDRESS_PER_DAY, VERIFICATION_MAILS_PER_ACCOUNT_PER_DAY } from '@ques/contracts';
import { connectPostgres, createLogger, InProcessEventBus, type Database, type MailMessage, type Mailer, type RunningService } from '@ques/kit';
import { createTestDatabase, eventually, infraGate, postgresServerUrl, type TestDatabase } from '@ques/kit/testing';
import type { IdentityDB } from '../db/schema.js';
import { runTestIdentity } from '../test/identity.js';

const log = createLogger('bounded-mail-test', 'silent');
const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

class KeptMail implements Mailer {
  readonly transport = 'file' as const;
  readonly sent: MailMessage[] = [];
  async send(mail: MailMessage) {
    this.sent.push(mail);
    return { messageId: String(this.sent.length) };
  }
  close() {}
}

const PASSWORD = 'a long enough password';
const HOUR = 3_600_000;

/** Bounded mail (issue 33, ADR 0060): identity's mails to addresses nobody proved, per inbox and per account a day. */
describe.runIf(run)('identity: verification and reset mails capped per normalised address and per account a UTC day', () => {
  let testDb: TestDatabase;
  let database: Database<IdentityDB>;
  let identity: RunningService<IdentityDB>;
  const mailer = new KeptMail();
  // Early in a UTC day, so the hours the test moves on stay in it.
  const today = new Date();
  let now = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 1, 0, 0);

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity' });
    identity = await runTestIdentity(database, new InProcessEventBus({ log }), log, { mailer, clock: () => new Date(now) });
  });
  afterAll(async () => {
    await identity?.stop();
    await database?.close();
    await testDb?.drop();
  });

  const inject = (method: 'POST' | 'PUT', url: string, payload: object, token?: string) =>
    identity.app.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const signup = async (name: string, email: string) => {
    const res = await inject('POST', '/api/users', { name, email, password: PASSWORD });
    expect(res.statusCode).toBe(201);
    return res.json<{ user: { id: string }; token: string }>();
  };
  const change = (token: string, email: string) => inject('PUT', '/api/users/profile', { email, currentPassword: PASSWORD }, token);
  const resend = (token: string) => inject('POST', '/api/users/verify-email/resend', {}, token);
  const jobsDone = async () => !(await database.db.selectFrom('scheduled_jobs').select('id').where('status', '=', 'pending').executeTakeFirst());
  const sentTo = (pattern: RegExp, subject: RegExp) => mailer.sent.filter((m) => pattern.test(m.to) && subject.test(m.subject));

  it('one inbox spelled many ways gets at most 5 verification mails a day, whichever accounts ask', async () => {
    const variants = ['Inbox+1@Gmail.com', 'in.box@gmail.com', 'INBOX+two@googlemail.com', 'i.n.b.o.x+3@gmail.com', 'inbox@GoogleMail.com', 'inbox+six@gmail.com'];
    const answers: [number, string | undefined][] = [];
    for (const [i, email] of variants.entries()) {
      const relay = await signup(`Relay ${i}`, `relay.${i}@example.com`);
      const res = await change(relay.token, email);
      answers.push([res.statusCode, res.statusCode === 429 ? res.json<{ message: string }>().message : undefined]);
    }
    expect(answers).toEqual([
      ...variants.slice(0, MAILS_PER_ADDRESS_PER_DAY).map(() => [200, undefined]),
      [429, M.tooManyMailsToAddress],
    ]);
    await eventually(jobsDone);
    expect(sentTo(/@(gmail|googlemail)\.com$/i, /verify/i)).toHaveLength(MAILS_PER_ADDRESS_PER_DAY);
    // The refused change was not made: the account keeps its address.
    const kept = await database.db.selectFrom('users').select('email').where('email', '=', 'relay.5@example.com').executeTakeFirst();
    expect(kept).toBeDefined();
  });

  it(`an account asks for at most ${VERIFICATION_MAILS_PER_ACCOUNT_PER_DAY} verification mails a day, whatever addresses`, async () => {
    const roamer = await signup('Rory Roamer', 'roamer.a@example.com'); // 1
    const statuses: number[] = [];
    // Five an hour per account (ADR 0021), so the day's ten take two hours: 1 + 4 resends, then a change + 4 resends.
    for (let i = 0; i < 4; i += 1) statuses.push((await resend(roamer.token)).statusCode);
    now += HOUR + 60_000;
    statuses.push((await change(roamer.token, 'roamer.b@example.com')).statusCode);
    for (let i = 0; i < 4; i += 1) statuses.push((await resend(roamer.token)).statusCode);
    expect(statuses).toEqual(Array.from({ length: 9 }, () => 200));
    now += HOUR + 60_000;
    const refused = await change(roamer.token, 'roamer.c@example.com');
    expect([refused.statusCode, refused.json<{ message: string }>().message]).toEqual([429, M.tooManyMailsForAccount]);
    await eventually(jobsDone);
    expect(sentTo(/^roamer\.[abc]@example\.com$/, /verify/i)).toHaveLength(VERIFICATION_MAILS_PER_ACCOUNT_PER_DAY);
    expect(sentTo(/^roamer\.c@example\.com$/, /./)).toHaveLength(0);
  });

  it(`reset mails: at most ${RESET_MAILS_PER_ADDRESS_PER_DAY} a day to one inbox, over every account made with a variant of it`, async () => {
    // Three accounts whose addresses are one inbox; five resets an hour each would be fifteen.
    const accounts = ['reset.me@gmail.com', 'resetme+1@gmail.com', 'Re.Set.Me+2@googlemail.com'];
    for (const [i, email] of accounts.entries()) await signup(`Reset ${i}`, email);
    for (const email of accounts) {
      for (let i = 0; i < 5; i += 1) expect((await inject('POST', '/api/users/reset-password', { email })).statusCode).toBe(200);
    }
    await eventually(jobsDone);
    expect(sentTo(/@(gmail|googlemail)\.com$/i, /reset/i)).toHaveLength(RESET_MAILS_PER_ADDRESS_PER_DAY);
  });
});
