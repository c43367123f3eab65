import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectPostgres,
  createLogger,
  createMailer,
  generateJwtKeys,
  InProcessEventBus,
  NatsEventBus,
  readMailbox,
  runService,
  type Database,
  type EventBus,
  type Mailer,
  type MailMessage,
  type RunningService,
} from '@ques/kit';
import {
  createTestDatabase,
  createTestTokenSigner,
  eventually,
  infraGate,
  natsServerBinary,
  postgresServerUrl,
  startNatsServer,
  uniqueNamespace,
  type TestDatabase,
} from '@ques/kit/testing';
import type { EventEnvelope } from '@ques/contracts';
import { CAPTCHA_MESSAGES, encodeCaptchaToken, ProofOfWorkCaptcha } from './captcha/captcha.js';
import { loadSupportConfig, type SupportConfig } from './config.js';
import type { SupportDB } from './db/schema.js';
import { supportService, type SupportParts } from './service.js';

type SupportInstance = RunningService<SupportDB, SupportConfig, SupportParts>;
/** A mailer that only sends (test stand-ins for SMTP). */
const sendingOnly = (send: Mailer['send']): Mailer => ({ transport: 'smtp', send, close: () => {} });

const log = createLogger('support-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const run = infraGate(
  !!(await postgresServerUrl()) && !!natsServerBinary(),
  'Postgres and a nats-server binary',
);

const HMAC_KEY = 'support-test-hmac-key-0123456789abcdef';
const INBOX = 'help@ques.test';
const ada = {
  sub: '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01',
  username: 'ada-lovelace',
};

let clockOffsetMs = 0;
const clock = () => new Date(Date.now() + clockOffsetMs);
let nextIp = 1;
/** Each test speaks from its own client address, so the per-client limit only bites where a test wants it to. */
const freshIp = () => `203.0.113.${nextIp++}`;

interface Harness {
  service: SupportInstance;
  database: Database<SupportDB>;
}

async function solvedToken(h: Harness, ip: string): Promise<string> {
  const res = await h.service.app.inject({
    method: 'GET',
    url: '/api/support/captcha',
    headers: { 'x-forwarded-for': ip },
  });
  expect(res.statusCode).toBe(200);
  const challenge = res.json<Challenge>();
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
  if (!solution) throw new Error('could not solve the challenge');
  return encodeCaptchaToken(challenge, solution);
}

function send(h: Harness, payload: Record<string, unknown>, opts: { ip: string; accessToken?: string }) {
  const headers: Record<string, string> = { 'x-forwarded-for': opts.ip };
  if (opts.accessToken) headers.authorization = `Bearer ${opts.accessToken}`;
  return h.service.app.inject({ method: 'POST', url: '/api/support/send', headers, payload });
}

/** Stored rows, as they are on disk (personal fields sealed). */
async function eventsOfType(database: Database<SupportDB>, type: string) {
  return database.db
    .selectFrom('events')
    .selectAll()
    .where('type', '=', type)
    .orderBy('global_position')
    .execute();
}

/** Events as the service reads them back (personal fields opened, or erased once the person is forgotten). */
async function openedOfType(service: SupportInstance, type: string) {
  return (await service.ctx.store.readAll(0, 10_000)).filter((e) => e.type === type);
}

describe.runIf(run)('support on real Postgres and NATS JetStream', () => {
  let testDb: TestDatabase;
  let database: Database<SupportDB>;
  let nats: Awaited<ReturnType<typeof startNatsServer>>;
  let bus: NatsEventBus;
  let h: Harness;
  let mailDir: string;
  let accessToken: string;
  const namespace = uniqueNamespace('support');

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = connectPostgres<SupportDB>({ connectionString: testDb.url, schema: 'support' });
    nats = await startNatsServer();
    bus = await NatsEventBus.connect({ servers: nats.url, name: 'support-test', namespace, log });
    const keys = generateJwtKeys();
    // Identity signs access tokens; the test key pair stands in for it.
    const signer = await createTestTokenSigner(keys);
    accessToken = signer.sign({ id: ada.sub, username: ada.username });
    await signer.close();
    mailDir = mkdtempSync(join(tmpdir(), 'ques-support-mail-'));
    const service = await runService(supportService, {
      config: loadSupportConfig({
        JWT_PUBLIC_KEY: keys.publicKey,
        CAPTCHA_HMAC_KEY: HMAC_KEY,
        SUPPORT_INBOX: INBOX,
        SUPPORT_RATE_LIMIT_PER_MINUTE: '5',
        TRUST_PROXY: 'loopback',
      }),
      database,
      bus,
      log,
      clock,
      mailer: createMailer({ from: 'Ques <no-reply@ques.test>', log, mailDir }),
      port: 0,
      pollIntervalMs: 50,
    });
    h = { service, database };
  });
  afterAll(async () => {
    await h?.service.stop();
    await bus?.close();
    await nats?.dispose();
    await database?.close();
    await testDb?.drop();
    if (mailDir) rmSync(mailDir, { recursive: true, force: true });
  });

  it('hands out a signed proof-of-work challenge that is never cached', async () => {
    const res = await h.service.app.inject({
      method: 'GET',
      url: '/api/support/captcha',
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const challenge = res.json<Challenge>();
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', keyLength: 32 });
    expect(challenge.parameters.expiresAt! * 1000 - Date.now()).toBeGreaterThan(9 * 60_000);
  });

  it('rejects a request without a captcha solution and records nothing', async () => {
    const res = await send(h, { title: 'Help', description: 'Something broke' }, { ip: freshIp() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: CAPTCHA_MESSAGES.missing });
    expect(await eventsOfType(database, 'SupportRequested')).toHaveLength(0);
  });

  it('asks for title and description with the spec message, without spending the captcha', async () => {
    const ip = freshIp();
    const captchaToken = await solvedToken(h, ip);
    for (const payload of [
      { description: 'No title', captchaToken },
      { title: '   ', description: 'Blank title', captchaToken },
      { title: 'No description', description: ' \n ', captchaToken },
    ]) {
      const res = await send(h, payload, { ip });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Please fill in all required fields.', code: 'BAD_REQUEST' });
    }
    const tooLong = await send(h, { title: 'x'.repeat(201), description: 'd', captchaToken }, { ip });
    expect(tooLong.statusCode).toBe(400);
    const badCategory = await send(
      h,
      { category: 'Refunds', title: 't', description: 'd', captchaToken },
      { ip },
    );
    expect(badCategory.json()).toMatchObject({ message: 'Please choose a support category.' });
    expect(await eventsOfType(database, 'SupportRequested')).toHaveLength(0);
    // The solution was not spent by the failed attempts.
    const ok = await send(
      h,
      { title: 'Now complete', description: 'All fields', captchaToken },
      { ip: freshIp() },
    );
    expect(ok.statusCode).toBe(200);
  });

  it('rejects forged and tampered captcha solutions', async () => {
    const forger = new ProofOfWorkCaptcha({ hmacKey: 'x'.repeat(40) });
    const challenge = await forger.challenge();
    const solution = (await solveChallenge({ challenge, deriveKey }))!;
    const forged = await send(
      h,
      { title: 'Forged', description: 'd', captchaToken: encodeCaptchaToken(challenge, solution) },
      { ip: freshIp() },
    );
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ message: CAPTCHA_MESSAGES.failed });

    const ip = freshIp();
    const real = JSON.parse(Buffer.from(await solvedToken(h, ip), 'base64').toString()) as {
      challenge: Challenge;
      solution: { counter: number; derivedKey: string };
    };
    const easier = { ...real.challenge, parameters: { ...real.challenge.parameters, cost: 1 } };
    const tampered = await send(
      h,
      { title: 'Tampered', description: 'd', captchaToken: encodeCaptchaToken(easier, real.solution) },
      { ip },
    );
    expect(tampered.statusCode).toBe(403);
    const garbage = await send(
      h,
      { title: 'Garbage', description: 'd', captchaToken: 'bm90IGEgcGF5bG9hZA==' },
      { ip },
    );
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({ message: CAPTCHA_MESSAGES.malformed });
  });

  it('accepts a valid solution from a signed-in user: SupportRequested stored and published, e-mail naming the sender', async () => {
    const ip = freshIp();
    const captchaToken = await solvedToken(h, ip);
    const before = (await eventsOfType(database, 'SupportRequested')).length;
    const res = await send(
      h,
      {
        category: 'Billing Issue',
        title: 'Charged twice',
        description: 'My card was charged twice for one tip.',
        captchaToken,
        userId: 'someone-else',
      },
      { ip, accessToken },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });

    const requested = await openedOfType(h.service, 'SupportRequested');
    expect(requested).toHaveLength(before + 1);
    const event = requested.at(-1)!;
    expect(event.data).toMatchObject({
      category: 'Billing Issue',
      title: 'Charged twice',
      description: 'My card was charged twice for one tip.',
      userId: ada.sub,
      username: ada.username,
    });
    expect(event.metadata).toMatchObject({ actor: ada.sub });
    // On disk the sender's words and name are sealed with their personal-data key.
    const raw = JSON.stringify((await eventsOfType(database, 'SupportRequested')).at(-1)!.data);
    expect(raw).toContain(ada.sub);
    expect(raw).not.toContain('Charged twice');
    expect(raw).not.toContain('charged twice for one tip');
    expect(raw).not.toContain(ada.username);
    const requestId = (event.data as { requestId: string }).requestId;

    const mail = await eventually(async () => readMailbox(mailDir).find((m) => m.text.includes(requestId)));
    expect(mail.to).toBe(INBOX);
    expect(mail.subject).toBe('[Support] Billing Issue: Charged twice');
    expect(mail.text).toContain('Category: Billing Issue');
    expect(mail.text).toContain('My card was charged twice for one tip.');
    expect(mail.text).toContain(`From: ada-lovelace (user id ${ada.sub}, signed in)`);
    expect(mail.text).not.toContain('someone-else');
    expect(mail.messageId).toBe(`<support-request-${requestId}@ques.support>`);
    // Issue 28: a letter, HTML beside the text, the sender's words in both.
    expect(mail.contentType).toBe('multipart/alternative');
    expect(mail.html).toContain('My card was charged twice for one tip.');
    expect(mail.html).toContain(`ada-lovelace (user id ${ada.sub}, signed in)`);
    await eventually(async () => {
      const mailed = await eventsOfType(database, 'SupportInboxMailed');
      return mailed.some((e) => (e.data as { requestId: string }).requestId === requestId);
    });

    // Published on the bus through the outbox: who and what kind, not the free text.
    const seen: EventEnvelope[] = [];
    const reader = await NatsEventBus.connect({
      servers: nats.url,
      name: 'support-test-reader',
      namespace,
      log,
    });
    try {
      await reader.subscribe({
        durable: 'test--support-requested',
        context: 'support',
        subjects: ['ques.support.SupportRequested'],
        handler: async (envelope) => void seen.push(envelope),
        onPoison: async () => {},
      });
      const envelope = await eventually(async () =>
        seen.find((e) => (e.data as { requestId: string }).requestId === requestId),
      );
      expect(envelope).toMatchObject({ type: 'SupportRequested', version: 1, id: event.eventId });
      expect(envelope.data).toEqual({
        requestId,
        category: 'Billing Issue',
        userId: ada.sub,
        requestedAt: expect.any(String),
      });
    } finally {
      await reader.close();
    }
  });

  it('never accepts the same solution twice', async () => {
    const captchaToken = await solvedToken(h, freshIp());
    const first = await send(h, { title: 'First', description: 'd', captchaToken }, { ip: freshIp() });
    expect(first.statusCode).toBe(200);
    const replay = await send(h, { title: 'Replay', description: 'd', captchaToken }, { ip: freshIp() });
    expect(replay.statusCode).toBe(403);
    expect(replay.json()).toMatchObject({ message: CAPTCHA_MESSAGES.replayed });
    const titles = (await openedOfType(h.service, 'SupportRequested')).map(
      (e) => (e.data as { title: string }).title,
    );
    expect(titles).toContain('First');
    expect(titles).not.toContain('Replay');
  });

  it('accepts exactly one of several concurrent submissions of one solution', async () => {
    const captchaToken = await solvedToken(h, freshIp());
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        send(h, { title: `Race ${i}`, description: 'd', captchaToken }, { ip: freshIp() }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 403, 403, 403]);
    const raced = (await openedOfType(h.service, 'SupportRequested')).filter((e) =>
      (e.data as { title: string }).title.startsWith('Race '),
    );
    expect(raced).toHaveLength(1);
  });

  it('mails a guest request as coming from a guest', async () => {
    const ip = freshIp();
    const res = await send(
      h,
      {
        title: 'Guest question',
        description: 'How do tips work?',
        captchaToken: await solvedToken(h, ip),
        userId: 'guest',
      },
      { ip },
    );
    expect(res.statusCode).toBe(200);
    const mail = await eventually(async () =>
      readMailbox(mailDir).find((m) => m.subject === '[Support] Technical Issue: Guest question'),
    );
    expect(mail.text).toContain('From: a guest (not signed in)');
  });

  it('rejects a solution whose challenge has expired', async () => {
    const ip = freshIp();
    const captchaToken = await solvedToken(h, ip);
    clockOffsetMs = 10 * 60_000 + 5_000;
    try {
      const res = await send(h, { title: 'Too late', description: 'd', captchaToken }, { ip });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: CAPTCHA_MESSAGES.expired });
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('refuses an invalid bearer token instead of treating the sender as a guest', async () => {
    const res = await send(h, { title: 't', description: 'd' }, { ip: freshIp(), accessToken: 'not-a-jwt' });
    expect(res.statusCode).toBe(401);
  });

  it('forgets a deleted user: their requests read as erased and nothing new is recorded for them', async () => {
    const ip = freshIp();
    const res = await send(
      h,
      { title: 'Delete me later', description: 'Personal words', captchaToken: await solvedToken(h, ip) },
      { ip, accessToken },
    );
    expect(res.statusCode).toBe(200);
    await bus.publish([
      {
        subject: 'ques.identity.UserDeleted',
        msgId: '3e0e9a4c-5a8e-4c61-9a53-0d8c1f7f1b11',
        envelope: {
          id: '3e0e9a4c-5a8e-4c61-9a53-0d8c1f7f1b11',
          type: 'UserDeleted',
          version: 1,
          streamId: `user-${ada.sub}`,
          streamVersion: 9,
          occurredAt: new Date().toISOString(),
          correlationId: 'test-deletion',
          causationId: null,
          data: { userId: ada.sub, deletedAt: new Date().toISOString() },
        },
      },
    ]);
    const erased = `erased-${ada.sub}`;
    await eventually(async () => {
      const mine = (await openedOfType(h.service, 'SupportRequested')).filter(
        (e) => (e.data as { userId: string | null }).userId === ada.sub,
      );
      return mine.length > 0 && mine.every((e) => (e.data as { title: string }).title === erased);
    });
    const mine = (await openedOfType(h.service, 'SupportRequested')).filter(
      (e) => (e.data as { userId: string | null }).userId === ada.sub,
    );
    for (const e of mine)
      expect(e.data).toMatchObject({ title: erased, description: erased, username: erased });
    // Guests' requests are untouched.
    const guest = (await openedOfType(h.service, 'SupportRequested')).find(
      (e) => (e.data as { title: string }).title === 'Guest question',
    );
    expect(guest?.data).toMatchObject({ description: 'How do tips work?' });
    // A token that outlived the account cannot add new personal data for the forgotten person.
    const after = await send(
      h,
      { title: 't', description: 'd', captchaToken: await solvedToken(h, ip) },
      { ip: freshIp(), accessToken },
    );
    expect(after.statusCode).toBe(401);
  });

  it('limits each client to 5 sends a minute (429), counted per client behind the BFF', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1) {
      // What a client writes into x-forwarded-for itself is ignored; the BFF's last entry counts.
      const res = await send(h, { title: 't', description: 'd' }, { ip: `198.51.100.${i}, ${ip}` });
      expect(res.statusCode).toBe(400);
    }
    const limited = await send(h, { title: 't', description: 'd' }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: expect.stringMatching(/^Too many requests\. Please try again in/),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not affected.
    expect((await send(h, { title: 't', description: 'd' }, { ip: freshIp() })).statusCode).toBe(400);
  });
});

describe.runIf(run)(
  'support: an accepted request is mailed even if the process dies before mailing it',
  () => {
    let testDb: TestDatabase;
    let database: Database<SupportDB>;
    let bus: EventBus;
    let mailDir: string;
    const keys = generateJwtKeys();

    beforeAll(async () => {
      testDb = await createTestDatabase();
      database = connectPostgres<SupportDB>({ connectionString: testDb.url, schema: 'support' });
      bus = new InProcessEventBus({ log });
      mailDir = mkdtempSync(join(tmpdir(), 'ques-support-mail-'));
    });
    afterAll(async () => {
      await bus?.close();
      await database?.close();
      await testDb?.drop();
      if (mailDir) rmSync(mailDir, { recursive: true, force: true });
    });

    const start = (mailer: Mailer, extra: { pollIntervalMs: number; clock?: () => Date }) =>
      runService(supportService, {
        config: loadSupportConfig({ JWT_PUBLIC_KEY: keys.publicKey, CAPTCHA_HMAC_KEY: HMAC_KEY, SUPPORT_INBOX: INBOX }),
        database,
        bus,
        log,
        mailer,
        port: 0,
        ...extra,
      });

    it('sends it after a restart, retries a failed send, and records the delivery once', async () => {
      // First process: its scheduler is gone before the request arrives (a commit would wake it, ADR 0026), so it
      // "dies" before mailing.
      const unused = sendingOnly(async () => Promise.reject(new Error('the first process never gets to mail')));
      const first = await start(unused, { pollIntervalMs: 3_600_000 });
      await first.ctx.scheduler.stop();
      const ip = freshIp();
      const res = await send(
        { service: first, database },
        {
          title: 'Before the crash',
          description: 'd',
          captchaToken: await solvedToken({ service: first, database }, ip),
        },
        { ip },
      );
      expect(res.statusCode).toBe(200);
      await first.stop();
      expect(readMailbox(mailDir)).toHaveLength(0);

      // Second process: its SMTP hand-off fails once, then works.
      const fileMailer = createMailer({ from: 'Ques <no-reply@ques.test>', log, mailDir });
      let attempts = 0;
      let offset = 0;
      const flaky = sendingOnly(async (mail: MailMessage) => {
        attempts += 1;
        if (attempts === 1) throw new Error('SMTP unavailable');
        return fileMailer.send(mail);
      });
      const second = await start(flaky, { pollIntervalMs: 50, clock: () => new Date(Date.now() + offset) });
      try {
        await eventually(async () => attempts >= 1);
        // The scheduler retries with backoff; move its clock past the retry instead of waiting.
        offset = 60_000;
        const mail = await eventually(async () => readMailbox(mailDir)[0]);
        expect(mail.subject).toBe('[Support] Technical Issue: Before the crash');
        await eventually(async () => (await eventsOfType(database, 'SupportInboxMailed')).length === 1);
        await new Promise((r) => setTimeout(r, 300));
        expect(readMailbox(mailDir)).toHaveLength(1);
        expect(await eventsOfType(database, 'SupportInboxMailed')).toHaveLength(1);
        const job = await database.db.selectFrom('scheduled_jobs').selectAll().executeTakeFirstOrThrow();
        expect(job).toMatchObject({ status: 'done', attempts: 2 });
      } finally {
        await second.stop();
      }
    });

    it('does not mail a request whose sender was deleted before it went out', async () => {
      const signer = await createTestTokenSigner(keys);
      const grace = { sub: '0c7d3f7e-2b6a-4f4e-8d1a-5b9b8e2f4c33', username: 'grace' };
      const token = signer.sign({ id: grace.sub, username: grace.username });
      await signer.close();
      const never = sendingOnly(async () => Promise.reject(new Error('must not mail')));
      const first = await start(never, { pollIntervalMs: 3_600_000 });
      await first.ctx.scheduler.stop(); // it dies before mailing (see above)
      const ip = freshIp();
      const res = await send(
        { service: first, database },
        {
          title: 'Soon gone',
          description: 'd',
          captchaToken: await solvedToken({ service: first, database }, ip),
        },
        { ip, accessToken: token },
      );
      expect(res.statusCode).toBe(200);
      await bus.publish([
        {
          subject: 'ques.identity.UserDeleted',
          msgId: '7a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
          envelope: {
            id: '7a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
            type: 'UserDeleted',
            version: 1,
            streamId: `user-${grace.sub}`,
            streamVersion: 3,
            occurredAt: new Date().toISOString(),
            correlationId: 'test-deletion',
            causationId: null,
            data: { userId: grace.sub, deletedAt: new Date().toISOString() },
          },
        },
      ]);
      await first.stop();
      const mailsBefore = readMailbox(mailDir).length;
      const second = await start(never, { pollIntervalMs: 50 });
      try {
        await eventually(async () => {
          const jobs = await database.db
            .selectFrom('scheduled_jobs')
            .selectAll()
            .where('status', '=', 'done')
            .execute();
          return jobs.length === 2;
        });
        expect(readMailbox(mailDir)).toHaveLength(mailsBefore);
        const failed = await database.db
          .selectFrom('scheduled_jobs')
          .select('last_error')
          .where('last_error', 'is not', null)
          .execute();
        expect(failed.map((r) => r.last_error)).not.toContain('must not mail');
      } finally {
        await second.stop();
      }
    });
  },
);
