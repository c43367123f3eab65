import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailbox } from '@ques/kit';
import { eventually, infraGate, natsTestUrl, postgresServerUrl } from '@ques/kit/testing';
import { INTERNAL_HEADERS, registerUser, startHarness, type Harness } from '../test/harness.js';
import { NUDGE_JOB } from './nudges.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

type User = Awaited<ReturnType<typeof registerUser>>;
const HOUR = 3_600_000;

/**
 * Issue 16 nudges, with the scheduler's clock advanced, on two service instances (both poll the same jobs: each mail
 * must go out once).
 */
describe.runIf(run)('nudges: reminders of held tips at 24 h, 72 h and 4 days (two instances)', () => {
  let h: Harness;
  /** Offset of the shared clock from the start, so marks can be reached in order. */
  let elapsed = 0;

  const handOver = (owner: User, questionId: string, title: string, amount = 500) =>
    h.a.app.inject({
      method: 'POST',
      url: '/internal/questions/tipped',
      headers: INTERNAL_HEADERS,
      payload: {
        questionId,
        questionData: { question: title, toUserId: owner.id, agreedToTerms: true, askedName: 'Tia Tipper', askedEmail: 'tia@example.com' },
        askerUserId: null,
        amountCents: amount,
        currency: 'usd',
        paymentRef: `pi_${questionId}`,
      },
    });
  /** A pending question with its tip held (payments said the card is authorized). */
  const heldTip = async (owner: User, title: string, amount = 500) => {
    const id = randomUUID();
    expect((await handOver(owner, id, title, amount)).statusCode).toBe(201);
    await h.publish(
      'payments',
      'TipAuthorized',
      { questionId: id, paymentRef: `pi_${id}`, amount, currency: 'usd', authorizedAt: h.now().toISOString() },
      `checkout-${id}`,
    );
    await eventually(async () => (await h.a.parts.questions.byId(id))?.tip_status === 'held');
    return id;
  };
  const nudgesTo = (owner: User) =>
    readMailbox(h.mailer.dir).filter((m) => m.to === owner.email && m.subject.includes('held for you'));
  /** Moves the clock and waits until neither instance has anything due left (nudges and their mails). */
  const advanceTo = async (ms: number) => {
    h.advance(ms - elapsed);
    elapsed = ms;
    await eventually(async () => {
      const due = await h.database.db
        .selectFrom('scheduled_jobs')
        .select('id')
        .where('status', '=', 'pending')
        .where('kind', 'in', [NUDGE_JOB, 'send-mail'])
        .where('due_at', '<=', h.now())
        .execute();
      return due.length === 0;
    });
  };
  const jobs = (questionId: string) =>
    h.database.db
      .selectFrom('scheduled_jobs')
      .select(['key', 'status'])
      .where('key', 'like', `nudge:${questionId}:%`)
      .orderBy('due_at')
      .execute();

  beforeAll(async () => {
    h = await startHarness(natsUrl!);
  });
  afterAll(async () => h?.close());

  it('mails the owner once at each mark, and nothing after the answer', async () => {
    const nia = await registerUser(h, { username: 'nia', name: 'Nia Owner', email: 'nia@example.com', emailVerified: true });
    const pat = await registerUser(h, { username: 'pat', name: 'Pat Owner', email: 'pat@example.com', emailVerified: true });
    const waiting = await heldTip(nia, 'Will you answer in time?');
    const answered = await heldTip(pat, 'Answered after the first reminder?', 700);
    expect((await jobs(waiting)).map((j) => j.status)).toEqual(['pending', 'pending', 'pending']);

    await advanceTo(24 * HOUR + 60_000);
    expect(nudgesTo(nia).map((m) => m.subject)).toEqual(['$5.00 held for you — released in 4 days unless you answer']);
    expect(nudgesTo(nia)[0]!.text).toContain('Will you answer in time?');
    expect(nudgesTo(nia)[0]!.text).toContain(`Answer it here: https://ques.test/admin?answer=${waiting}`);
    expect(nudgesTo(pat).map((m) => m.subject)).toEqual(['$7.00 held for you — released in 4 days unless you answer']);

    // Pat answers: the rest of Pat's reminders are cancelled with the answer.
    const answer = await h.a.app.inject({
      method: 'PUT',
      url: `/api/questions/${answered}/answer`,
      payload: { answer: 'Yes.' },
      headers: { authorization: `Bearer ${pat.token}` },
    });
    expect(answer.statusCode).toBe(200);
    expect((await jobs(answered)).map((j) => j.status)).toEqual(['done', 'cancelled', 'cancelled']);

    await advanceTo(72 * HOUR + 60_000);
    await advanceTo(96 * HOUR + 60_000);
    expect(nudgesTo(nia).map((m) => m.subject)).toEqual([
      '$5.00 held for you — released in 4 days unless you answer',
      '$5.00 held for you — released in 2 days unless you answer',
      '$5.00 held for you — released in 1 day unless you answer',
    ]);
    expect(new Set(nudgesTo(nia).map((m) => m.messageId)).size).toBe(3);
    expect(nudgesTo(pat)).toHaveLength(1);
    expect((await jobs(waiting)).map((j) => j.status)).toEqual(['done', 'done', 'done']);
  });

  it('sends one digest when several reminders are due at once', async () => {
    const dee = await registerUser(h, { username: 'dee', name: 'Dee Owner', email: 'dee@example.com', emailVerified: true });
    const first = await heldTip(dee, 'First of three?');
    await heldTip(dee, 'Second of three?', 1000);
    await heldTip(dee, 'Third of three?', 2500);
    await advanceTo(elapsed + 24 * HOUR + 60_000);
    const mails = nudgesTo(dee);
    expect(mails.map((m) => m.subject)).toEqual(['3 tips ($40.00) held for you — answer before they are released']);
    for (const title of ['First of three?', 'Second of three?', 'Third of three?']) expect(mails[0]!.text).toContain(title);
    expect((await jobs(first))[0]!.status).toBe('done');
  });

  it('sends nothing to an owner who turned nudges off, and nothing for a withdrawn or deleted question', async () => {
    const quinn = await registerUser(h, { username: 'quinn', name: 'Quinn Quiet', email: 'quinn@example.com', emailVerified: true });
    const off = await h.a.app.inject({
      method: 'PUT',
      url: '/api/asking/settings',
      payload: { nudges: false },
      headers: { authorization: `Bearer ${quinn.token}` },
    });
    expect(off.json().nudges).toBe(false);
    await heldTip(quinn, 'Nobody reminds you?');
    const rae = await registerUser(h, { username: 'rae', name: 'Rae Owner', email: 'rae@example.com', emailVerified: true });
    const deleted = await heldTip(rae, 'Deleted before the reminder?');
    const del = await h.a.app.inject({
      method: 'PATCH',
      url: `/api/questions/${deleted}`,
      payload: { deletedByReceiver: true },
      headers: { authorization: `Bearer ${rae.token}` },
    });
    expect(del.statusCode).toBe(200);
    expect((await jobs(deleted)).map((j) => j.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    await advanceTo(elapsed + 4 * 24 * HOUR + 60_000);
    expect(nudgesTo(quinn)).toEqual([]);
    expect(nudgesTo(rae)).toEqual([]);
  });

  it('sends no reminder to an owner whose address is not verified (ADR 0021)', async () => {
    const uma = await registerUser(h, { username: 'uma', name: 'Uma Unverified', email: 'uma@example.com' });
    const waiting = await heldTip(uma, 'Reminded at an unproven address?');
    await advanceTo(elapsed + 4 * 24 * HOUR + 60_000);
    expect((await jobs(waiting)).every((j) => j.status === 'done')).toBe(true);
    expect(nudgesTo(uma)).toEqual([]);
  });
});
