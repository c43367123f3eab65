import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_RECEIPTS_PER_ADDRESS_PER_DAY } from '@ques/contracts';
import { readMailbox } from '@ques/kit';
import { eventually, infraGate, natsTestUrl, postgresServerUrl } from '@ques/kit/testing';
import { callApi, guestQuestion, registerUser, startHarness, type Harness } from '../test/harness.js';
import { GUEST_RECEIPT_MAIL } from './commands.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

type User = Awaited<ReturnType<typeof registerUser>>;

/** One inbox, typed eleven ways: case, `+tags`, Gmail's dots and googlemail.com (ADR 0054's normalisation). */
const VARIANTS = [
  'victim@gmail.com',
  'Victim@Gmail.com',
  'victim+1@gmail.com',
  'v.ictim@gmail.com',
  'VICTIM+news@googlemail.com',
  'vic.tim+2@gmail.com',
  'victim+3@GMAIL.COM',
  'v.i.c.t.i.m@gmail.com',
  'victim+4@googlemail.com',
  'Vic.Tim@gmail.com',
  'victim+over@gmail.com',
];

describe.runIf(run)("bounded mail (issue 33): a guest's receipts to one address a day, across owners and instances", () => {
  let h: Harness;
  let owners: User[];

  const receipts = () => readMailbox(h.mailer.dir).filter((m) => /@(gmail|googlemail)\.com$/i.test(m.to) && /^Your question to /.test(m.subject));
  const mailJobsDone = async () =>
    !(await h.database.db.selectFrom('scheduled_jobs').select('id').where('kind', '=', 'send-mail').where('status', '=', 'pending').executeTakeFirst());

  beforeAll(async () => {
    h = await startHarness(natsUrl!);
    owners = [];
    // Three owners: the guest limit (5 asks per owner per normalised address) is not what stops the mail here.
    for (const username of ['olive', 'otto', 'oscar']) owners.push(await registerUser(h, { username, emailVerified: true }));
  });
  afterAll(async () => h?.close());

  it(`sends ${GUEST_RECEIPTS_PER_ADDRESS_PER_DAY} receipts to one normalised address in a UTC day; the next question is accepted without one`, async () => {
    expect(VARIANTS).toHaveLength(GUEST_RECEIPTS_PER_ADDRESS_PER_DAY + 1);
    const statuses: number[] = [];
    for (const [i, askedEmail] of VARIANTS.entries()) {
      // Both instances take asks: the counter is the database's, not a process's.
      const res = await (i % 2 ? h.b : h.a).app.inject({
        method: 'POST',
        url: '/api/questions',
        payload: guestQuestion(owners[i % 3]!, `Question number ${i + 1}?`, { askedEmail }),
        headers: { 'x-ques-device': `device-${randomUUID().replace(/-/g, '')}`, 'idempotency-key': randomUUID() },
      });
      statuses.push(res.statusCode);
    }
    // Every question stands: the cap skips a mail, it never refuses an ask.
    expect(statuses).toEqual(VARIANTS.map(() => 201));
    await eventually(async () => (await mailJobsDone()) && receipts().length >= GUEST_RECEIPTS_PER_ADDRESS_PER_DAY);
    expect(receipts()).toHaveLength(GUEST_RECEIPTS_PER_ADDRESS_PER_DAY);
    expect(receipts().some((m) => m.to === 'victim+over@gmail.com')).toBe(false);
    // The owner still got the question (the skipped one included), and the counter says one receipt was skipped.
    const skipped = await h.database.db
      .selectFrom('questions')
      .select('id')
      .where('to_user_id', '=', owners[10 % 3]!.id)
      .where('question', '=', 'Question number 11?')
      .executeTakeFirstOrThrow();
    // Answered, the skipped question mails nothing to the unproven address: its guest link was made, never confirmed.
    const owner = owners[10 % 3]!;
    const answered = await callApi(h, 'PUT', `/api/questions/${skipped.id}/answer`, { answer: 'Here you go.', tags: [] }, owner.token);
    expect(answered.status).toBe(200);
    await eventually(mailJobsDone);
    expect(readMailbox(h.mailer.dir).filter((m) => m.to === 'victim+over@gmail.com')).toEqual([]);
    const counter = await h.database.db.selectFrom('mail_quota').select(['taken']).where('kind', '=', GUEST_RECEIPT_MAIL).execute();
    expect(counter.map((c) => c.taken)).toEqual([GUEST_RECEIPTS_PER_ADDRESS_PER_DAY + 1]);

    // Another address is counted on its own, and the next UTC day starts again.
    const other = await h.a.app.inject({
      method: 'POST',
      url: '/api/questions',
      payload: guestQuestion(owners[0]!, 'Someone else asks?', { askedEmail: 'someone.else@gmail.com' }),
      headers: { 'x-ques-device': `device-${randomUUID().replace(/-/g, '')}`, 'idempotency-key': randomUUID() },
    });
    expect(other.statusCode).toBe(201);
    await eventually(async () => readMailbox(h.mailer.dir).some((m) => m.to === 'someone.else@gmail.com'));
    h.advance(24 * 3_600_000);
    const tomorrow = await h.a.app.inject({
      method: 'POST',
      url: '/api/questions',
      payload: guestQuestion(owners[1]!, 'The next day?', { askedEmail: 'victim+tomorrow@gmail.com' }),
      headers: { 'x-ques-device': `device-${randomUUID().replace(/-/g, '')}`, 'idempotency-key': randomUUID() },
    });
    expect(tomorrow.statusCode).toBe(201);
    await eventually(async () => readMailbox(h.mailer.dir).some((m) => m.to === 'victim+tomorrow@gmail.com'));
  });
});
