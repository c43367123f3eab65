import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infraGate, natsTestUrl, postgresServerUrl, statementsOf } from '@ques/kit/testing';
import { ownerHash } from './asking.js';
import { guestQuestion, registerUser, startHarness, type Harness } from '../test/harness.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

const DEVICE = 'device-cccccccccccccccccccccccc';

describe.runIf(run)('one guest ask: its round trips to Postgres (issue 17, ADR 0042)', () => {
  let h: Harness;
  let ada: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    h = await startHarness(natsUrl!);
    ada = await registerUser(h, { username: 'ada', emailVerified: true });
  });
  afterAll(() => h?.close());

  const ask = (question: string) =>
    statementsOf(
      // The callback form of inject: the promise form starts the request from a chain that loses the caller's async
      // context, and with it the count.
      () =>
        new Promise<LightMyRequestResponse>((resolve, reject) =>
          h.a.app.inject(
            {
              method: 'POST',
              url: '/api/questions',
              payload: guestQuestion(ada, question),
              headers: { 'idempotency-key': randomUUID(), 'x-ques-device': DEVICE },
            },
            (err, res) => (err || !res ? reject(err ?? new Error('no response')) : resolve(res)),
          ),
        ),
    );

  // 26 before ADR 0042: the owner read three times and screening in four more statements, the origin in a transaction
  // of its own after the row's read, the personal-data key in two statements, each mail job's NOTIFY in its own, the
  // recipient read again for the owner's mail. 17 before ADR 0049: the deadline's lock and the stream's load of a
  // question that cannot exist yet, the outbox row in a statement of its own, the two mails and the status link in three.
  // 13 since ADR 0060: the receipt to a typed address takes one from that address's day counter (one upsert) first.
  const CEILING = 13;

  it(`sends at most ${CEILING} statements, BEGIN and COMMIT included, and the question is in the owner's inbox`, async () => {
    await ask('Warm-up?'); // first use of the owner's personal-data key
    const { result, statements } = await ask('How many round trips?');
    expect(result.statusCode).toBe(201);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(CEILING);
    // One read of the owner before the transaction, one inside it; the origin and the response's row inside it.
    const beforeBegin = statements.slice(0, statements.indexOf('begin'));
    const inTransaction = statements.slice(statements.indexOf('begin'), statements.indexOf('commit'));
    expect(beforeBegin.filter((s) => /recipients/.test(s))).toHaveLength(1);
    expect(inTransaction.filter((s) => /from "recipients"/.test(s))).toHaveLength(1);
    expect(statements.filter((s) => /question_origins/.test(s) && /insert/i.test(s))).toHaveLength(1);
    expect(statements.indexOf('commit')).toBeGreaterThan(statements.findIndex((s) => /insert into "question_origins"/.test(s)));
    // ADR 0049: a new question is neither locked nor loaded; its outbox row goes with its event; its mails with its link.
    expect(inTransaction.filter((s) => /scheduled_jobs/.test(s) || /from "events"/.test(s))).toEqual([
      expect.stringMatching(/insert into "scheduled_jobs".*insert into "status_links"/s),
    ]);
    expect(inTransaction.filter((s) => /insert into "outbox"/.test(s))).toEqual([expect.stringMatching(/insert into "events"/)]);
    expect(inTransaction.filter((s) => /mail_quota/.test(s))).toHaveLength(1);
    const id = result.json<{ _id: string }>()._id;
    const jobs = await h.database.db.selectFrom('scheduled_jobs').select('key').where('key', 'like', `mail:%:${id}`).orderBy('key').execute();
    expect(jobs.map((j) => j.key)).toEqual([`mail:question-asked:${id}`, `mail:status-link:${id}`]);
    expect(await h.database.db.selectFrom('status_links').select('guest').where('question_id', '=', id).execute()).toEqual([{ guest: true }]);
    expect(await h.database.db.selectFrom('outbox').select('subject').where('event_id', '=', (await h.database.db.selectFrom('events').select('event_id').where('stream_id', '=', `question-${id}`).executeTakeFirstOrThrow()).event_id).execute()).toHaveLength(1);
    const origin = await h.database.db.selectFrom('question_origins').selectAll().where('question_id', '=', id).executeTakeFirst();
    expect(origin).toMatchObject({ owner_id: ada.id, guest: true });
    expect(origin?.device_hash).toMatch(/^[0-9a-f]{64}$/);
    const inbox = await h.a.parts.questions.inbox(ada.id, 50, undefined);
    expect(inbox.rows.map((r) => r.id)).toContain(id);
  });

  it('matches a block by a signed-in asker\'s verified address hashed in SQL, as ownerHash hashes it', async () => {
    const bob = await registerUser(h, { username: 'bob', email: 'Bob@Example.com', emailVerified: true });
    const ask = { toUserId: ada.id, question: 'Q?', detail: '', askerUserId: bob.id, guestEmail: null, device: null };
    expect((await h.a.parts.asking.ownerRead(ask))?.blocked).toBe(false);
    await h.database.db
      .insertInto('asker_blocks')
      .values({
        id: randomUUID(),
        owner_id: ada.id,
        label: 'by e-mail',
        account_id: null,
        email_hash: ownerHash(ada.id, 'email', 'bob@example.com'),
        device_hash: null,
        source_question_id: randomUUID(),
        created_at: new Date(),
      })
      .execute();
    const read = await h.a.parts.asking.ownerRead(ask);
    expect([read?.blocked, read?.asker?.user_id, read?.emailHash]).toEqual([true, bob.id, ownerHash(ada.id, 'email', 'bob@example.com')]);
  });
});
