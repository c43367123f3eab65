import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { IDENTITY_MESSAGES, identityApi, identityBrowserCalls, type UserSnapshot } from '@ques/contracts';
import { connectPostgres, createLogger, fileMailer, InProcessEventBus, readMailbox, type Database, type MailMessage, type Mailer, type RunningService } from '@ques/kit';
import { createTestDatabase, eventually, infraGate, postgresServerUrl, routesWithoutSchemas, type TestDatabase } from '@ques/kit/testing';
import type { IdentityDB } from './db/schema.js';
import { runTestIdentity } from './test/identity.js';

const log = createLogger('accounts-test', 'silent');
const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

/** Keeps what identity sends, for the test to open links from; also writes it as the embedded default would. */
class KeptMail implements Mailer {
  readonly transport = 'file' as const;
  readonly sent: MailMessage[] = [];
  readonly dir = join(mkdtempSync(join(tmpdir(), 'ques-identity-mail-')), 'mail');
  private readonly files = fileMailer(this.dir, 'Ques <no-reply@ques.test>', log);
  async send(mail: MailMessage) {
    this.sent.push(mail);
    await this.files.send(mail);
    return { messageId: String(this.sent.length) };
  }
  close() {}
  to(address: string, subject: RegExp) {
    return this.sent.filter((m) => m.to === address && subject.test(m.subject));
  }
}

const PASSWORD = 'a long enough password';
const tokenIn = (mail: MailMessage | undefined) => /token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
/** The job mails inside its transaction, so a fast reader can hold the link a moment before its hash is committed. */
const allMailJobsDone = async (database: Database<IdentityDB>) =>
  !(await database.db.selectFrom('scheduled_jobs').select('id').where('status', '=', 'pending').executeTakeFirst());

describe.runIf(run)('identity accounts on real Postgres: declared routes, e-mail verification, malformed input, resets', () => {
  let testDb: TestDatabase;
  let database: Database<IdentityDB>;
  let identity: RunningService<IdentityDB>;
  let bus: InProcessEventBus;
  const mailer = new KeptMail();
  const published: { type: string; data: UserSnapshot }[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity' });
    bus = new InProcessEventBus({ log });
    await bus.subscribe({
      durable: 'test--identity-snapshots',
      context: 'identity',
      subjects: ['ques.identity.UserRegistered', 'ques.identity.ProfileUpdated'],
      handler: async (envelope) => void published.push({ type: envelope.type, data: envelope.data as UserSnapshot }),
      onPoison: async () => {},
    });
    identity = await runTestIdentity(database, bus, log, { mailer });
  });
  afterAll(async () => {
    await identity?.stop();
    await database?.close();
    await testDb?.drop();
  });

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token?: string, headers: Record<string, string> = {}) =>
    identity.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : typeof payload === 'string' || Buffer.isBuffer(payload) ? { payload } : { payload: payload as object }),
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
  const signup = async (name: string, email: string) => {
    const res = await inject('POST', '/api/users', { name, email, password: PASSWORD });
    expect(res.statusCode).toBe(201);
    return res.json<{ user: { id: string; emailVerified: boolean }; token: string }>();
  };

  it('sends the verification mail as HTML and text (multipart/alternative), both with the same link', async () => {
    await signup('Hedy <b>Html</b>', 'hedy.html@example.com');
    await eventually(async () => readMailbox(mailer.dir).some((m) => m.to === 'hedy.html@example.com'));
    const mail = readMailbox(mailer.dir).find((m) => m.to === 'hedy.html@example.com')!;
    expect(mail.subject).toBe('Verify your email address for Ques');
    expect(mail.contentType).toBe('multipart/alternative');
    const link = /https?:\/\/\S+\/verify-email\?token=[\w-]+/.exec(mail.text)![0];
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('Verify my address');
    // The name is the person's own text: escaped in the HTML part.
    expect(mail.html).toContain('Hi Hedy &lt;b&gt;Html&lt;/b&gt;,');
    expect(mail.text).toContain('Hi Hedy <b>Html</b>,');
  });

  it('registers every identity call from its contracts declaration, each with request and response schemas', () => {
    expect(routesWithoutSchemas(identity.app)).toEqual([]);
    for (const call of [...Object.values(identityApi), ...Object.values(identityBrowserCalls)]) {
      expect(identity.app.hasRoute({ method: call.method, url: call.path }), `${call.method} ${call.path}`).toBe(true);
    }
  });

  it('mails a link at signup whose token is stored hashed, works once, and publishes emailVerified in the snapshot', async () => {
    const ada = await signup('Ada Verified', 'ada.verified@example.com');
    expect(ada.user.emailVerified).toBe(false);
    // The account works before verification.
    expect((await inject('GET', '/api/users/profile', undefined, ada.token)).json()).toMatchObject({ emailVerified: false });
    await eventually(async () => mailer.to('ada.verified@example.com', /verify/i).length === 1 && allMailJobsDone(database));
    const token = tokenIn(mailer.to('ada.verified@example.com', /verify/i)[0])!;
    expect(mailer.to('ada.verified@example.com', /verify/i)[0]!.text).toContain(`/verify-email?token=${token}`);
    const stored = await database.db.selectFrom('email_verifications').selectAll().where('user_id', '=', ada.user.id).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored[0]!.expires_at.getTime() - stored[0]!.created_at.getTime()).toBeGreaterThanOrEqual(24 * 3_600_000 - 60_000);

    const confirmed = await inject('POST', '/api/users/verify-email', { token });
    expect([confirmed.statusCode, confirmed.json().message]).toEqual([200, 'Your email address is verified.']);
    const again = await inject('POST', '/api/users/verify-email', { token });
    expect([again.statusCode, again.json().message]).toEqual([
      400,
      'This verification link is invalid, expired or already used. Sign in and send a new one from Account Settings.',
    ]);
    expect((await inject('GET', '/api/users/profile', undefined, ada.token)).json().emailVerified).toBe(true);
    await eventually(async () => published.some((e) => e.data.userId === ada.user.id && e.type === 'ProfileUpdated' && e.data.emailVerified === true));
    expect(published.find((e) => e.data.userId === ada.user.id && e.type === 'UserRegistered')!.data.emailVerified).toBe(false);
  });

  it('a change of address asks for the current password, unpublishes the proof, and mails the new address; an old link proves nothing', async () => {
    const bo = await signup('Bo Mover', 'bo.old@example.com');
    await eventually(async () => mailer.to('bo.old@example.com', /verify/i).length === 1 && allMailJobsDone(database));
    const oldToken = tokenIn(mailer.to('bo.old@example.com', /verify/i)[0])!;
    const missing = await inject('PUT', '/api/users/profile', { email: 'bo.new@example.com' }, bo.token);
    expect([missing.statusCode, missing.json().message]).toEqual([400, 'Please enter your current password.']);
    const wrong = await inject('PUT', '/api/users/profile', { email: 'bo.new@example.com', currentPassword: 'wrong password' }, bo.token);
    expect([wrong.statusCode, wrong.json().message]).toEqual([400, 'Your current password is incorrect.']);
    const pw = await inject('PUT', '/api/users/profile', { newPassword: 'another long password' }, bo.token);
    expect([pw.statusCode, pw.json().message]).toEqual([400, 'Please enter your current password.']);
    // The same address (the web app sends the whole form) needs no password.
    expect((await inject('PUT', '/api/users/profile', { email: 'bo.old@example.com', bio: 'Still here' }, bo.token)).statusCode).toBe(200);

    const moved = await inject('PUT', '/api/users/profile', { email: 'bo.new@example.com', currentPassword: PASSWORD }, bo.token);
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ email: 'bo.new@example.com', emailVerified: false });
    // The link mailed to the old address no longer proves anything.
    expect((await inject('POST', '/api/users/verify-email', { token: oldToken })).statusCode).toBe(400);
    await eventually(async () => mailer.to('bo.new@example.com', /verify/i).length === 1 && allMailJobsDone(database));
    const newToken = tokenIn(mailer.to('bo.new@example.com', /verify/i)[0])!;
    expect((await inject('POST', '/api/users/verify-email', { token: newToken })).statusCode).toBe(200);
    expect((await inject('GET', '/api/users/profile', undefined, bo.token)).json()).toMatchObject({ email: 'bo.new@example.com', emailVerified: true });
  });

  it('refuses a non-object body to PUT /api/users/profile with a clear 400', async () => {
    const cy = await signup('Cy Body', 'cy.body@example.com');
    for (const body of ['[1,2,3]', '"just a string"', '42', 'null', 'true', '[[[[[[[[[[]]]]]]]]]]']) {
      const res = await inject('PUT', '/api/users/profile', body, cy.token, { 'content-type': 'application/json' });
      expect(res.statusCode, body).toBe(400);
      expect(res.json().message, body).toBe('The profile must be sent as a JSON object.');
    }
    const noBody = await inject('PUT', '/api/users/profile', undefined, cy.token);
    expect(noBody.statusCode).toBe(400);
    const notJson = await inject('PUT', '/api/users/profile', '{"name":', cy.token, { 'content-type': 'application/json' });
    expect(notJson.statusCode).toBe(400);
  });

  it('answers malformed multipart to the avatar route with a 400, never a 5xx', async () => {
    const di = await signup('Di Upload', 'di.upload@example.com');
    const part = (boundary: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const cases: { name: string; type: string; body: string | Buffer }[] = [
      { name: 'no boundary', type: 'multipart/form-data', body: `${part('x')}bytes\r\n--x--\r\n` },
      { name: 'empty boundary', type: 'multipart/form-data; boundary=', body: 'whatever' },
      { name: 'truncated part', type: 'multipart/form-data; boundary=b0', body: `${part('b0')}\x89PNG\r\n\x1a\n half an ima` },
      { name: 'no parts', type: 'multipart/form-data; boundary=b1', body: '--b1--\r\n' },
      { name: 'garbage', type: 'multipart/form-data; boundary=b2', body: Buffer.from([0, 1, 2, 3, 255, 254]) },
      { name: 'header only', type: 'multipart/form-data; boundary=b3', body: '--b3\r\nContent-Disposition: form-da' },
      { name: 'wrong field', type: 'multipart/form-data; boundary=b4', body: `--b4\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\n\r\nxx\r\n--b4--\r\n` },
      { name: 'json instead', type: 'application/json', body: '{"avatar":"x"}' },
      { name: 'text instead', type: 'text/plain', body: 'not an upload' },
    ];
    for (const c of cases) {
      const res = await inject('POST', '/api/users/avatar', c.body, di.token, { 'content-type': c.type });
      expect(res.statusCode, c.name).toBe(400);
      expect(typeof res.json().message, c.name).toBe('string');
    }
    // The service is still fine.
    expect((await inject('GET', '/api/users/profile', undefined, di.token)).statusCode).toBe(200);
  });

  it('resends a verification link to a signed-in unverified account, at most 5 an hour, and never for a verified one', async () => {
    const ed = await signup('Ed Resend', 'ed.resend@example.com');
    expect((await inject('POST', '/api/users/verify-email/resend')).statusCode).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await inject('POST', '/api/users/verify-email/resend', undefined, ed.token)).statusCode);
    // Signup's mail counts: four more, then 429.
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    await eventually(async () => mailer.to('ed.resend@example.com', /verify/i).length === 5 && allMailJobsDone(database));
    const tokens = mailer.to('ed.resend@example.com', /verify/i).map(tokenIn);
    expect(new Set(tokens).size).toBe(5);
    expect((await inject('POST', '/api/users/verify-email', { token: tokens[2] })).statusCode).toBe(200);
    const done = await inject('POST', '/api/users/verify-email/resend', {}, ed.token);
    expect([done.statusCode, done.json().message]).toEqual([409, 'Your email address is already verified.']);
  });

  it('queues the same job for known and unknown reset addresses and mails one address at most 5 times an hour', async () => {
    await signup('Fay Reset', 'fay.reset@example.com');
    const jobs = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM scheduled_jobs WHERE kind = 'password-reset-mail'`.execute(database.db)).rows[0]!.n;
    const before = await jobs();
    const bodies = new Set<string>();
    for (let i = 0; i < 7; i += 1) {
      for (const email of ['fay.reset@example.com', 'nobody.fay@example.com']) {
        const res = await inject('POST', '/api/users/reset-password', { email });
        bodies.add(`${res.statusCode} ${res.body}`);
      }
    }
    expect([...bodies]).toEqual(['200 {"message":"Reset instructions sent"}']);
    expect((await jobs()) - before).toBe(14);
    await eventually(async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM scheduled_jobs WHERE kind = 'password-reset-mail' AND status <> 'done'`.execute(database.db)).rows[0]!.n === 0);
    expect(mailer.to('fay.reset@example.com', /reset/i)).toHaveLength(5);
    expect(mailer.sent.filter((m) => m.to === 'nobody.fay@example.com')).toHaveLength(0);
  });

  it('bounded mail (issue 33 finding 4): e-mail changes and mails to one unproven address are capped per day; names are one plain line', async () => {
    const mallory = await signup('Mallory Changer', 'mallory.changer@example.com');
    const change = (token: string, email: string) => inject('PUT', '/api/users/profile', { email, currentPassword: PASSWORD }, token);
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i += 1) statuses.push((await change(mallory.token, `target.${i}@example.com`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    const refused = await change(mallory.token, 'target.9@example.com');
    expect(refused.json().message).toBe(IDENTITY_MESSAGES.tooManyEmailChanges);
    await eventually(() => allMailJobsDone(database));
    expect(mailer.sent.filter((m) => /^target\.\d@example\.com$/.test(m.to))).toHaveLength(3);

    // One address, many accounts: at most five mails a day, whoever asks.
    const codes: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const account = await signup(`Relay ${i}`, `relay.${i}@example.com`);
      codes.push((await change(account.token, 'victim@example.com')).statusCode);
      if (codes.at(-1) === 200) expect((await change(account.token, `relay.${i}.moved@example.com`)).statusCode).toBe(200);
      else expect((await change(account.token, 'victim@example.com')).json().message).toBe(IDENTITY_MESSAGES.tooManyMailsToAddress);
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);

    // A name is one line of plain text: no header or line tricks reach a mail.
    for (const name of ['Eve\nBcc: all@example.com', 'Eve\u0007', 'Eve\u202eevil']) {
      const res = await inject('POST', '/api/users', { name, email: `eve.${name.length}@example.com`, password: PASSWORD });
      expect([res.statusCode, res.json().message]).toEqual([400, IDENTITY_MESSAGES.nameControl]);
    }
    const rename = await inject('PUT', '/api/users/profile', { name: 'Mal\r\nlory' }, mallory.token);
    expect([rename.statusCode, rename.json().message]).toEqual([400, IDENTITY_MESSAGES.nameControl]);
  });
});
