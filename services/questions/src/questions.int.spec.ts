import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANSWER_MESSAGES,
  ANSWER_WINDOW_MS,
  ASK_MESSAGES,
  CURATE_MESSAGES,
  type EventEnvelope,
} from '@ques/contracts';
import { insertRowsAsJson, readMailbox, rebuildProjections } from '@ques/kit';
import { eventually, infraGate, natsTestUrl, postgresServerUrl, routesWithoutSchemas } from '@ques/kit/testing';
import { questionsProjection } from './questions/read-models/questions.js';
import type { QuestionsInstance } from './test/harness.js';
import {
  callApi,
  guestQuestion,
  log,
  registerUser,
  snapshot,
  INTERNAL_HEADERS,
  startHarness,
  type ApiMethod,
  type Harness,
} from './test/harness.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

type User = Awaited<ReturnType<typeof registerUser>>;

describe.runIf(run)('questions service on real Postgres + NATS JetStream (two instances)', () => {
  let h: Harness;
  let ada: User;
  let bob: User;
  let eve: User;
  /** Every questions integration event seen on NATS. */
  const published: EventEnvelope[] = [];

  const api = (method: ApiMethod, url: string, body?: unknown, token?: string) => callApi(h, method, url, body, token);
  const guestAsk = (to: User, question: string, over: Record<string, unknown> = {}) =>
    api('POST', '/api/questions', guestQuestion(to, question, { isCurated: false, ...over }));
  const count = async (type: string, questionId?: string) => {
    let q = h.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', type);
    if (questionId) q = q.where('stream_id', '=', `question-${questionId}`);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  const internal = (questionId: string, over: Record<string, unknown> = {}) =>
    h.a.app.inject({
      method: 'POST',
      url: '/internal/questions/tipped',
      headers: INTERNAL_HEADERS,
      payload: {
        questionId,
        questionData: {
          question: `Tipped ${questionId.slice(0, 4)}?`,
          toUserId: ada.id,
          agreedToTerms: true,
          askedName: 'Tia',
          askedEmail: 'tia@example.com',
        },
        askerUserId: null,
        amountCents: 500,
        currency: 'usd',
        paymentRef: `pi_${questionId}`,
        ...over,
      },
    });
  const authorize = (questionId: string) =>
    h.publish(
      'payments',
      'TipAuthorized',
      {
        questionId,
        paymentRef: `pi_${questionId}`,
        amount: 500,
        currency: 'usd',
        authorizedAt: h.now().toISOString(),
      },
      `checkout-${questionId}`,
    );

  beforeAll(async () => {
    h = await startHarness(natsUrl!);
    await h.bus.subscribe({
      durable: 'test--questions-events',
      context: 'questions',
      subjects: ['ques.questions.>'],
      handler: async (envelope) => void published.push(envelope),
      onPoison: async () => {},
    });
    ada = await registerUser(h, { username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' });
    // Bob proved his address: guest questions asked with it are his too (issue 12).
    bob = await registerUser(h, { username: 'bob', name: 'Bob Asker', email: 'bob@example.com', emailVerified: true });
    eve = await registerUser(h, { username: 'eve', name: 'Eve Stranger', email: 'eve@example.com' });
  });
  afterAll(async () => h?.close());

  it('walks the journey: guest asks → inbox (not public) → answer with tags → public, newest first → hide/show → delete', async () => {
    const asked = await guestAsk(ada, '  How do engines weave patterns?  ', {
      detail: 'Like a Jacquard loom?',
      askedEmail: 'grace@example.com',
    });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({
      question: 'How do engines weave patterns?',
      status: 'Pending',
      fromUsername: 'guest',
      askedEmail: 'grace@example.com',
      toUsername: 'ada',
      recipientName: 'Ada Lovelace',
      tip: 0,
      tipStatus: 'none',
    });
    expect(asked.body.toUserEmail).toBeUndefined(); // the asker never learns the owner's address
    const id: string = asked.body._id;

    const inbox = await api('GET', '/api/questions?role=receiver', undefined, ada.token);
    expect(inbox.body.map((q: { _id: string }) => q._id)).toContain(id);
    expect(inbox.body.find((q: { _id: string }) => q._id === id)).toMatchObject({
      askedName: 'Grace Guest',
      askedEmail: 'grace@example.com',
      toUserEmail: 'ada@example.com',
    });
    const publicBefore = await api('GET', '/api/questions?username=ada&role=receiver');
    expect(publicBefore.status).toBe(200);
    expect(publicBefore.body.map((q: { _id: string }) => q._id)).not.toContain(id);
    expect((await api('GET', `/api/questions/${id}`)).status).toBe(404);

    const answered = await api(
      'PUT',
      `/api/questions/${id}/answer`,
      {
        answer: 'With punched cards.',
        tags: [' Looms ', 'looms', 'Engines', ''],
        displayOnProfile: true,
        replierName: 'Ada',
      },
      ada.token,
    );
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      status: 'Answered',
      answer: 'With punched cards.',
      tags: ['looms', 'engines'],
      tip: 0,
      replierName: 'Ada',
    });

    // Two more answered questions: the public list is newest first.
    const second = (await guestAsk(ada, 'Second question?')).body._id as string;
    h.advance(1000);
    const third = (await guestAsk(ada, 'Third question?')).body._id as string;
    for (const q of [second, third])
      expect((await api('PUT', `/api/questions/${q}/answer`, { answer: 'Yes.' }, ada.token)).status).toBe(
        200,
      );
    const pub = await api('GET', '/api/questions?username=ada&role=receiver');
    expect(pub.body.map((q: { _id: string }) => q._id)).toEqual([third, second, id]);
    expect(pub.body[2]).toMatchObject({
      question: 'How do engines weave patterns?',
      detail: 'Like a Jacquard loom?',
      answer: 'With punched cards.',
      tags: ['looms', 'engines'],
      toUsername: 'ada',
    });
    expect(pub.text).not.toContain('@'); // no e-mail address in public lists
    expect(pub.body[0]).not.toHaveProperty('askedName');
    expect(pub.body[0]).not.toHaveProperty('tip');
    expect((await api('GET', `/api/questions/${id}`)).body).toMatchObject({
      _id: id,
      answer: 'With punched cards.',
    });

    // Cursor pagination: the array plus x-next-cursor.
    const page1 = await api('GET', '/api/questions?username=ada&role=receiver&limit=2');
    expect(page1.body.map((q: { _id: string }) => q._id)).toEqual([third, second]);
    const cursor = page1.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const page2 = await api('GET', `/api/questions?username=ada&role=receiver&limit=2&cursor=${cursor}`);
    expect(page2.body.map((q: { _id: string }) => q._id)).toEqual([id]);
    expect(page2.headers['x-next-cursor']).toBeUndefined();
    expect((await api('GET', '/api/questions?username=ada&role=receiver&cursor=garbage')).body.message).toBe(
      'Invalid cursor',
    );

    const hide = await api('PATCH', `/api/questions/${id}`, { displayOnProfile: false }, ada.token);
    expect(hide.status).toBe(200);
    expect(hide.body.displayOnProfile).toBe(false);
    expect(
      (await api('GET', '/api/questions?username=ada&role=receiver')).body.map((q: { _id: string }) => q._id),
    ).not.toContain(id);
    expect((await api('GET', `/api/questions/${id}`)).status).toBe(404);
    await api('PATCH', `/api/questions/${id}`, { displayOnProfile: true }, ada.token);
    expect(
      (await api('GET', '/api/questions?username=ada&role=receiver')).body.map((q: { _id: string }) => q._id),
    ).toContain(id);

    const deleted = await api('PATCH', `/api/questions/${id}`, { deletedByReceiver: true }, ada.token);
    expect(deleted.body.deletedByReceiver).toBe(true);
    expect(
      (await api('GET', '/api/questions?role=receiver', undefined, ada.token)).body.map(
        (q: { _id: string }) => q._id,
      ),
    ).not.toContain(id);
    expect(
      (await api('GET', '/api/questions?username=ada&role=receiver')).body.map((q: { _id: string }) => q._id),
    ).not.toContain(id);
  });

  it('lets a signed-in asker see their question (asked as guest with the same, verified e-mail too) and withdraw it while pending', async () => {
    const mine = await api(
      'POST',
      '/api/questions',
      {
        question: 'Bob asks',
        toUserId: ada.id,
        askedName: 'Mallory',
        askedEmail: 'mallory@example.com',
        fromUsername: 'mallory',
      },
      bob.token,
    );
    expect(mine.status).toBe(201);
    // Identity from the token, never from the body.
    expect(mine.body).toMatchObject({
      fromUsername: 'bob',
      askedName: 'Bob Asker',
      askedEmail: 'bob@example.com',
    });
    const asGuest = await guestAsk(ada, 'Bob asked as a guest', {
      askedName: 'Bobby',
      askedEmail: 'BOB@example.com',
    });
    const asked = await api('GET', '/api/questions?role=asker', undefined, bob.token);
    expect(asked.body.map((q: { _id: string }) => q._id)).toEqual([asGuest.body._id, mine.body._id]);
    expect(asked.body[0].toUserEmail).toBeUndefined();

    expect((await api('DELETE', `/api/questions/${asGuest.body._id}`, undefined, bob.token)).status).toBe(
      200,
    );
    const withdrawn = await api('DELETE', `/api/questions/${mine.body._id}`, undefined, bob.token);
    expect(withdrawn.body).toEqual({ message: 'Question withdrawn' });
    expect((await api('GET', '/api/questions?role=asker', undefined, bob.token)).body).toEqual([]);
    // The owner's inbox keeps it, withdrawn (issue 14).
    expect(
      (await api('GET', '/api/questions?role=receiver', undefined, ada.token)).body
        .filter((q: { _id: string }) => q._id === mine.body._id)
        .map((q: { status: string }) => q.status),
    ).toEqual(['Withdrawn']);
    // Still readable by its two parties, as withdrawn.
    expect((await api('GET', `/api/questions/${mine.body._id}`, undefined, bob.token)).body.status).toBe(
      'Withdrawn',
    );
  });

  it('curates Q&A for the owner only: in the curated list and on the public page, not in the inbox', async () => {
    const curated = await api(
      'POST',
      '/api/questions',
      {
        question: 'Curated?',
        detail: '',
        answer: 'Curated.',
        source: 'Interview, 1843',
        displayOnProfile: true,
        isCurated: true,
        tip: 0,
        toUsername: 'ada',
        tags: ['Notes'],
      },
      ada.token,
    );
    expect(curated.status).toBe(201);
    expect(curated.body).toMatchObject({
      isCurated: true,
      status: 'Answered',
      tags: ['notes'],
      source: 'Interview, 1843',
      tip: 0,
      displayOnProfile: true,
    });
    const id = curated.body._id;
    expect(
      (await api('GET', '/api/questions?role=curated', undefined, ada.token)).body.map(
        (q: { _id: string }) => q._id,
      ),
    ).toEqual([id]);
    expect(
      (await api('GET', '/api/questions?role=receiver', undefined, ada.token)).body.map(
        (q: { _id: string }) => q._id,
      ),
    ).not.toContain(id);
    expect((await api('GET', '/api/questions?username=ada&role=receiver')).body[0]._id).toBe(id);
    expect(
      (await api('GET', '/api/questions', undefined, ada.token)).body.map((q: { _id: string }) => q._id),
    ).toContain(id);
    // Default shown; not for someone else's profile; not without a token.
    expect(
      (await api('POST', '/api/questions', { question: 'q', answer: 'a', isCurated: true }, ada.token)).body
        .displayOnProfile,
    ).toBe(true);
    const foreign = await api(
      'POST',
      '/api/questions',
      { question: 'q', answer: 'a', isCurated: true, toUsername: 'bob' },
      ada.token,
    );
    expect(foreign.status).toBe(403);
    expect(
      (await api('POST', '/api/questions', { question: 'q', answer: 'a', isCurated: true })).status,
    ).toBe(401);
  });

  it('returns every spec §5 validation message for its case', async () => {
    const archive = await registerUser(h, { username: 'archive-ada', archiveProfile: true });
    const noEmail = await registerUser(h, { username: 'no-email', email: '' });
    const guest = {
      question: 'Q?',
      agreedToTerms: true,
      askedName: 'G',
      askedEmail: 'g@example.com',
      toUserId: ada.id,
    };
    const cases: [Record<string, unknown>, string | undefined, number, string][] = [
      [{ ...guest, question: '   ' }, undefined, 400, ASK_MESSAGES.titleRequired],
      [{ ...guest, agreedToTerms: false }, undefined, 400, ASK_MESSAGES.mustAgree],
      [{ ...guest, askedName: '', yourName: '' }, undefined, 400, ASK_MESSAGES.nameAndEmail],
      [{ ...guest, askedEmail: 'not-an-email' }, undefined, 400, ASK_MESSAGES.invalidEmail],
      [{ ...guest, toUserId: undefined }, undefined, 400, ASK_MESSAGES.recipientMissing],
      [{ ...guest, toUserId: randomUUID() }, undefined, 400, ASK_MESSAGES.recipientMissing],
      [{ ...guest, toUserId: noEmail.id }, undefined, 400, ASK_MESSAGES.recipientEmailMissing],
      [{ ...guest, toUserId: archive.id }, undefined, 422, ASK_MESSAGES.archiveProfile],
      [{ ...guest, tip: null }, undefined, 400, ASK_MESSAGES.selectTip],
      [{ ...guest, tip: 0.5 }, undefined, 400, ASK_MESSAGES.penny],
      [{ ...guest, tip: 5 }, undefined, 422, ASK_MESSAGES.tipNeedsCheckout],
      // Signed in: no terms, name or e-mail needed.
      [{ question: 'Q?', toUserId: ada.id }, bob.token, 201, ''],
      [{ question: 'Q?', answer: 'A', isCurated: true, title: 'x' }, ada.token, 201, ''],
      [{ question: ' ', answer: 'A', isCurated: true }, ada.token, 400, CURATE_MESSAGES.titleRequired],
      [{ question: 'Q', answer: ' ', isCurated: true }, ada.token, 400, CURATE_MESSAGES.answerRequired],
    ];
    for (const [body, token, status, message] of cases) {
      const res = await api('POST', '/api/questions', body, token);
      expect({ body, status: res.status, message: status === 201 ? '' : res.body.message }).toEqual({
        body,
        status,
        message,
      });
    }
    const pending = (await guestAsk(ada, 'To be answered')).body._id as string;
    const blank = await api('PUT', `/api/questions/${pending}/answer`, { answer: '  ' }, ada.token);
    expect([blank.status, blank.body.message]).toEqual([400, ANSWER_MESSAGES.answerRequired]);
    const badId = await api('PUT', '/api/questions/not-an-id/answer', { answer: 'x' }, ada.token);
    expect([badId.status, badId.body.message]).toEqual([400, ANSWER_MESSAGES.invalidQuestionId]);
    const missing = await api('PUT', `/api/questions/${randomUUID()}/answer`, { answer: 'x' }, ada.token);
    expect([missing.status, missing.body.message]).toEqual([404, 'Question not found']);
    const tooLong = await api(
      'PUT',
      `/api/questions/${pending}/answer`,
      { answer: 'x'.repeat(20_001) },
      ada.token,
    );
    expect(tooLong.body.message).toBe('Answer must be at most 20000 characters');
    const badPatch = await api('PATCH', `/api/questions/${pending}`, { displayOnProfile: 'yes' }, ada.token);
    expect([badPatch.status, badPatch.body.message]).toEqual([
      400,
      'Send { displayOnProfile: true | false } or { deletedByReceiver: true }',
    ]);
  });

  it('rejects illegal transitions with 409 and a clear message', async () => {
    const q = (await api('POST', '/api/questions', { question: 'Transitions?', toUserId: ada.id }, bob.token))
      .body._id as string;
    const edit = await api('PUT', `/api/questions/${q}/answer`, { answer: 'x', skipNotify: true }, ada.token);
    expect([edit.status, edit.body.message]).toEqual([
      409,
      'This question has not been answered yet, so there is no answer to edit.',
    ]);
    await api('PUT', `/api/questions/${q}/answer`, { answer: 'Done.' }, ada.token);
    const again = await api('PUT', `/api/questions/${q}/answer`, { answer: 'Again.' }, ada.token);
    expect([again.status, again.body.message]).toEqual([409, 'This question has already been answered.']);
    const withdraw = await api('DELETE', `/api/questions/${q}`, undefined, bob.token);
    expect([withdraw.status, withdraw.body.message]).toEqual([
      409,
      'This question has already been answered and can no longer be withdrawn.',
    ]);

    const w = (await api('POST', '/api/questions', { question: 'Withdrawn?', toUserId: ada.id }, bob.token))
      .body._id as string;
    await api('DELETE', `/api/questions/${w}`, undefined, bob.token);
    const answerWithdrawn = await api('PUT', `/api/questions/${w}/answer`, { answer: 'Too late' }, ada.token);
    expect([answerWithdrawn.status, answerWithdrawn.body.message]).toEqual([
      409,
      'This question was withdrawn by the asker. It can no longer be answered.',
    ]);
    const twice = await api('DELETE', `/api/questions/${w}`, undefined, bob.token);
    expect([twice.status, twice.body.message]).toEqual([409, 'This question was already withdrawn.']);

    const d = (await guestAsk(ada, 'Deleted?')).body._id as string;
    await api('PATCH', `/api/questions/${d}`, { deletedByReceiver: true }, ada.token);
    const deleteAgain = await api('PATCH', `/api/questions/${d}`, { deletedByReceiver: true }, ada.token);
    expect([deleteAgain.status, deleteAgain.body.message]).toEqual([
      409,
      'This question was already deleted.',
    ]);
  });

  it('cross-user matrix: another user and an anonymous caller get 401/403/404 on every route and learn nothing', async () => {
    const pending = (
      await api(
        'POST',
        '/api/questions',
        { question: 'Private pending', detail: 'secret detail', toUserId: ada.id },
        bob.token,
      )
    ).body._id as string;
    const hidden = (await guestAsk(ada, 'Private hidden')).body._id as string;
    await api(
      'PUT',
      `/api/questions/${hidden}/answer`,
      { answer: 'secret answer', displayOnProfile: false },
      ada.token,
    );
    const open = (await guestAsk(ada, 'Public one')).body._id as string;
    await api('PUT', `/api/questions/${open}/answer`, { answer: 'public answer' }, ada.token);

    type Case = { method: 'GET' | 'PUT' | 'PATCH' | 'DELETE'; url: string; body?: unknown };
    const routes = (id: string): Case[] => [
      { method: 'GET', url: `/api/questions/${id}` },
      { method: 'PUT', url: `/api/questions/${id}/answer`, body: { answer: 'hijack' } },
      { method: 'PUT', url: `/api/questions/${id}/answer`, body: { answer: 'hijack', skipNotify: true } },
      { method: 'PATCH', url: `/api/questions/${id}`, body: { displayOnProfile: true } },
      { method: 'PATCH', url: `/api/questions/${id}`, body: { deletedByReceiver: true } },
      { method: 'DELETE', url: `/api/questions/${id}` },
    ];
    for (const id of [pending, hidden, open]) {
      for (const route of routes(id)) {
        const anon = await api(route.method, route.url, route.body);
        const stranger = await api(route.method, route.url, route.body, eve.token);
        const isPublicRead = id === open && route.method === 'GET';
        if (isPublicRead) {
          expect(anon.status).toBe(200);
          expect(anon.text).not.toContain('@');
          expect(stranger.body).not.toHaveProperty('askedEmail');
          continue;
        }
        expect({ route, status: anon.status }).toEqual({ route, status: route.method === 'GET' ? 404 : 401 });
        expect({ route, status: stranger.status }).toEqual({ route, status: id === open ? 403 : 404 });
        for (const res of [anon, stranger]) {
          expect(res.text).not.toMatch(/secret|grace@|bob@|ada@|Private/);
          expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
        }
      }
    }
    // The asker is not the recipient: 403 on the recipient's actions, with nothing leaked.
    expect((await api('PUT', `/api/questions/${pending}/answer`, { answer: 'self' }, bob.token)).status).toBe(
      403,
    );
    expect(
      (await api('PATCH', `/api/questions/${pending}`, { deletedByReceiver: true }, bob.token)).status,
    ).toBe(403);
    // The recipient is not the asker.
    expect((await api('DELETE', `/api/questions/${pending}`, undefined, ada.token)).status).toBe(403);
    // Lists: 401 without a token; a stranger's own list holds none of Ada's questions; nothing changed above.
    expect((await api('GET', '/api/questions')).status).toBe(401);
    expect((await api('GET', '/api/questions?role=receiver')).status).toBe(401);
    const evesList = await api('GET', '/api/questions', undefined, eve.token);
    expect(evesList.body).toEqual([]);
    const pub = await api('GET', '/api/questions?username=ada&role=receiver');
    expect(pub.body.map((q: { _id: string }) => q._id)).not.toContain(pending);
    expect(pub.body.map((q: { _id: string }) => q._id)).not.toContain(hidden);
    expect(pub.text).not.toContain('@');
    const untouched = await api('GET', `/api/questions/${pending}`, undefined, ada.token);
    expect(untouched.body).toMatchObject({ status: 'Pending', deletedByReceiver: false, answer: '' });
    // A forged token is a 401, not a guest.
    expect((await api('GET', `/api/questions/${open}`, undefined, 'not-a-jwt')).status).toBe(401);
  });

  it('applies identity events delivered twice only once, ignores a late older one, and uses a new name for new questions', async () => {
    const userId = randomUUID();
    const registered = await h.publishIdentity(
      'UserRegistered',
      snapshot({ userId, username: 'lin', name: 'Lin Old' }),
      1,
    );
    await eventually(() => h.a.parts.recipients.byId(userId));
    const renamed = snapshot({ userId, username: 'lin', name: 'Lin New', email: 'lin.new@example.com' });
    const rename = await h.publishIdentity('ProfileUpdated', renamed, 2);
    await eventually(async () => (await h.a.parts.recipients.byId(userId))?.name === 'Lin New');

    // The very same events again (a relay crash before marking them published)…
    await h.publishIdentity('UserRegistered', registered.data as never, 1, registered.id);
    await h.publishIdentity('ProfileUpdated', rename.data as never, 2, rename.id);
    // …and a stale snapshot under a new id but an older stream version, arriving late.
    await h.publishIdentity('ProfileUpdated', snapshot({ userId, username: 'lin', name: 'Lin Stale' }), 1);
    await h.consumerIdle('identity', 'questions--recipients');
    expect(await h.database.db.selectFrom('dead_letters').selectAll().execute()).toEqual([]);
    const processed = await h.database.db
      .selectFrom('processed_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('consumer', '=', 'questions--recipients')
      .where('event_id', 'in', [registered.id, rename.id])
      .executeTakeFirstOrThrow();
    expect(Number(processed.n)).toBe(2);
    const row = await h.a.parts.recipients.byId(userId);
    expect(row).toMatchObject({ name: 'Lin New', email: 'lin.new@example.com', version: 2 });

    const q = await guestAsk({ ...ada, id: userId, username: 'lin' }, 'After the rename?');
    expect(q.body.recipientName).toBe('Lin New');
    expect(
      (await api('GET', '/api/questions?role=receiver', undefined, h.token({ id: userId, username: 'lin' })))
        .body[0].toUserEmail,
    ).toBe('lin.new@example.com');

    // A deleted account can no longer be asked, and a late update does not bring it back.
    await h.publishIdentity('UserDeleted', { userId, deletedAt: h.now().toISOString() }, 3);
    await eventually(async () => !(await h.a.parts.recipients.byId(userId)));
    await h.publishIdentity('ProfileUpdated', snapshot({ userId, username: 'lin', name: 'Lin Revived' }), 4);
    await h.consumerIdle('identity', 'questions--recipients');
    expect(await h.a.parts.recipients.byId(userId)).toBeUndefined();
    expect((await guestAsk({ ...ada, id: userId }, 'Still there?')).body.message).toBe(
      ASK_MESSAGES.recipientMissing,
    );
  });

  it('mails the owner on a new question and the asker on an answer (not on an edit), retrying a failed send', async () => {
    const owner = await registerUser(h, { username: 'mara', name: 'Mara Mail', email: 'mara@example.com', emailVerified: true });
    const mailsTo = (to: string) => readMailbox(h.mailer.dir).filter((m) => m.to === to);
    // Earlier tests' mails are out, so the outage below hits this question's mail.
    await eventually(
      async () =>
        !(await h.database.db
          .selectFrom('scheduled_jobs')
          .select('id')
          .where('kind', '=', 'send-mail')
          .where('status', '=', 'pending')
          .executeTakeFirst()),
    );
    h.mailer.failures = 2; // the mail server is down for the first two attempts
    const asked = await guestAsk(owner, 'Will you mail me?', {
      askedName: 'Pat',
      askedEmail: 'pat@example.com',
    });
    expect(asked.status).toBe(201); // the question does not depend on the mail
    await eventually(async () => {
      const job = await h.database.db
        .selectFrom('scheduled_jobs')
        .selectAll()
        .where('key', '=', `mail:question-asked:${asked.body._id}`)
        .executeTakeFirst();
      return job && job.attempts >= 1 && job.status === 'pending';
    });
    for (let i = 0; i < 3 && mailsTo('mara@example.com').length === 0; i += 1) {
      h.advance(30 * 60_000); // past the retry back-off
      await eventually(
        async () => mailsTo('mara@example.com').length > 0 || h.mailer.failures === 0,
        5_000,
      ).catch(() => null);
    }
    await eventually(async () => mailsTo('mara@example.com').length === 1);
    const newMail = mailsTo('mara@example.com')[0]!;
    expect(newMail.subject).toBe('New question from Pat');
    expect(newMail.text).toContain('Will you mail me?');
    expect(newMail.text).toContain('https://ques.test/admin');

    // Issue 14: a guest's answer e-mail goes only to a confirmed address — Pat opens the status link first.
    await eventually(async () => mailsTo('pat@example.com').length === 1);
    const statusLink = /\/q\/([A-Za-z0-9_-]{43})/.exec(mailsTo('pat@example.com')[0]!.text)![1]!;
    expect((await api('POST', `/api/question-status/${statusLink}/confirm`)).status).toBe(200);
    const answerMails = () => mailsTo('pat@example.com').filter((m) => m.subject.includes('answered'));
    const token = owner.token;
    await api('PUT', `/api/questions/${asked.body._id}/answer`, { answer: 'Yes, by mail.', tags: [] }, token);
    await eventually(async () => answerMails().length === 1);
    const answerMail = answerMails()[0]!;
    expect(answerMail.subject).toBe('Mara Mail answered your question');
    expect(answerMail.text).toContain('Yes, by mail.');
    expect(answerMail.text).toContain(
      `https://ques.test/ask/mara/question/${asked.body._id}/will-you-mail-me`,
    );

    await api(
      'PUT',
      `/api/questions/${asked.body._id}/answer`,
      { answer: 'Yes, by mail (edited).', skipNotify: true },
      token,
    );
    const settled = await registerUser(h, { username: 'mail-marker', emailVerified: true });
    await guestAsk(settled, 'Marker question', { askedEmail: 'marker@example.com' });
    await eventually(async () => mailsTo('mail-marker@example.com').length === 1);
    expect(answerMails()).toHaveLength(1);
    expect(mailsTo('mara@example.com')).toHaveLength(1);
  });

  it('mails an account only at an address its owner verified: no new-question mail to an unverified owner, no answer mail to an unverified signed-in asker (ADR 0021)', async () => {
    const mailsTo = (to: string) => readMailbox(h.mailer.dir).filter((m) => m.to === to);
    const owner = await registerUser(h, { username: 'una', name: 'Una Unverified', email: 'una@example.com' });
    const asker = await registerUser(h, { username: 'ned', name: 'Ned Asker', email: 'ned@example.com' });
    const quiet = await api('POST', '/api/questions', { question: 'Anyone there?', detail: '', tip: 0, isCurated: false, toUserId: owner.id, toUsername: owner.username }, asker.token);
    expect(quiet.status).toBe(201);
    const quietJob = () =>
      h.database.db
        .selectFrom('scheduled_jobs')
        .select('id')
        .where('key', 'in', [`mail:question-asked:${quiet.body._id}`, `mail:answer-posted:${quiet.body._id}`, `mail:status-link:${quiet.body._id}`])
        .executeTakeFirst();
    expect(await quietJob()).toBeUndefined();
    await api('PUT', `/api/questions/${quiet.body._id}/answer`, { answer: 'Here.', tags: [] }, owner.token);
    expect(await quietJob()).toBeUndefined();

    // Both prove their addresses (identity publishes a snapshot with emailVerified: true): mail flows again.
    await h.publishIdentity('ProfileUpdated', snapshot({ userId: owner.id, username: 'una', name: 'Una Unverified', email: 'una@example.com', emailVerified: true }), 2);
    await h.publishIdentity('ProfileUpdated', snapshot({ userId: asker.id, username: 'ned', name: 'Ned Asker', email: 'ned@example.com', emailVerified: true }), 2);
    await eventually(async () => (await h.a.parts.recipients.byId(owner.id))?.email_verified === true && (await h.a.parts.recipients.byId(asker.id))?.email_verified === true);
    const heard = await api('POST', '/api/questions', { question: 'Now?', detail: '', tip: 0, isCurated: false, toUserId: owner.id, toUsername: owner.username }, asker.token);
    await eventually(async () => mailsTo('una@example.com').length === 1);
    await api('PUT', `/api/questions/${heard.body._id}/answer`, { answer: 'Now.', tags: [] }, owner.token);
    // Ned's receipt (issue 28), then the answer.
    const answered = () => mailsTo('ned@example.com').filter((m) => m.subject === 'Una Unverified answered your question');
    await eventually(async () => answered().length === 1);
    expect(answered()[0]!.text).toContain('Now.');
    expect(mailsTo('ned@example.com').map((m) => m.subject)).toContain('Your question to Una Unverified on Ques');
  });

  it('expires each unanswered tipped question exactly once with two schedulers, never answered or withdrawn ones', async () => {
    const [unanswered, answered, withdrawn, second] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    for (const id of [unanswered, answered, second]) expect((await internal(id)).statusCode).toBe(201);
    expect(
      (
        await internal(withdrawn, {
          askerUserId: bob.id,
          questionData: { question: 'Bob tips?', toUserId: ada.id },
        })
      ).statusCode,
    ).toBe(201);
    expect((await internal(unanswered)).statusCode).toBe(200); // payments retrying its call is harmless
    const penny = await internal(randomUUID(), { amountCents: 50 });
    expect([penny.statusCode, penny.json().message]).toEqual([400, ASK_MESSAGES.penny]);
    // Awaiting payment: invisible to the owner.
    expect(
      (await api('GET', '/api/questions?role=receiver', undefined, ada.token)).body.map(
        (q: { _id: string }) => q._id,
      ),
    ).not.toContain(unanswered);

    for (const id of [unanswered, answered, withdrawn, second]) await authorize(id);
    await eventually(
      async () =>
        (await count('QuestionAsked')) >= 4 &&
        (
          await h.database.db
            .selectFrom('questions')
            .select('id')
            .where('id', 'in', [unanswered, answered, withdrawn, second])
            .where('lifecycle', '=', 'pending')
            .execute()
        ).length === 4,
    );
    const inbox = (await api('GET', '/api/questions?role=receiver', undefined, ada.token)).body as {
      _id: string;
      tip: number;
      tipStatus: string;
      answerDeadline: string;
    }[];
    const tipped = inbox.find((q) => q._id === unanswered)!;
    expect(tipped).toMatchObject({ tip: 5, tipAmount: 500, currency: 'usd', tipStatus: 'held' });
    expect(Date.parse(tipped.answerDeadline) - Date.now()).toBeGreaterThan(ANSWER_WINDOW_MS - 60_000);

    expect(
      (await api('PUT', `/api/questions/${answered}/answer`, { answer: 'In time.' }, ada.token)).body
        .tipStatus,
    ).toBe('capturing');
    expect((await api('DELETE', `/api/questions/${withdrawn}`, undefined, bob.token)).status).toBe(200);

    // Both instances' schedulers poll on their own; drive them at the same moment too.
    h.advance(ANSWER_WINDOW_MS + 60_000);
    await Promise.all([
      h.a.ctx.scheduler.runDue(),
      h.b.ctx.scheduler.runDue(),
      h.a.ctx.scheduler.runDue(),
      h.b.ctx.scheduler.runDue(),
    ]);
    await eventually(async () => (await count('AnswerWindowExpired')) >= 2);
    await new Promise((r) => setTimeout(r, 300));
    await Promise.all([h.a.ctx.scheduler.runDue(), h.b.ctx.scheduler.runDue()]);
    expect(await count('AnswerWindowExpired', unanswered)).toBe(1);
    expect(await count('AnswerWindowExpired', second)).toBe(1);
    expect(await count('AnswerWindowExpired', answered)).toBe(0);
    expect(await count('AnswerWindowExpired', withdrawn)).toBe(0);
    expect(await count('AnswerWindowExpired')).toBe(2);
    await eventually(async () => published.filter((e) => e.type === 'AnswerWindowExpired').length === 2);
    expect(
      published
        .filter((e) => e.type === 'AnswerWindowExpired')
        .map((e) => (e.data as { questionId: string }).questionId)
        .sort(),
    ).toEqual([unanswered, second].sort());
    expect(published.find((e) => e.type === 'AnswerWindowExpired')!.data).toMatchObject({
      tipToRelease: { amount: 500, currency: 'usd' },
    });

    // Expired: still pending, tip released, and answerable for free.
    const expired = await api('GET', `/api/questions/${unanswered}`, undefined, ada.token);
    expect(expired.body).toMatchObject({
      status: 'Pending',
      tipStatus: 'released',
      answerWindowExpired: true,
    });
    const late = await api(
      'PUT',
      `/api/questions/${unanswered}/answer`,
      { answer: 'Late, for free.' },
      ada.token,
    );
    expect(late.body).toMatchObject({ status: 'Answered', tipStatus: 'released' });
    await eventually(async () =>
      published.some(
        (e) => e.type === 'AnswerPosted' && (e.data as { questionId: string }).questionId === unanswered,
      ),
    );
    expect(
      published.find(
        (e) => e.type === 'AnswerPosted' && (e.data as { questionId: string }).questionId === unanswered,
      )!.data,
    ).toMatchObject({ tipToCapture: null });
    expect(
      published.find(
        (e) => e.type === 'AnswerPosted' && (e.data as { questionId: string }).questionId === answered,
      )!.data,
    ).toMatchObject({
      tipToCapture: { amount: 500, currency: 'usd', paymentRef: `pi_${answered}` },
    });
    expect(
      published.find(
        (e) => e.type === 'QuestionWithdrawn' && (e.data as { questionId: string }).questionId === withdrawn,
      )!.data,
    ).toMatchObject({
      tipToRelease: { amount: 500 },
    });

    // Payments confirms the capture → the owner sees it as captured.
    await h.publish(
      'payments',
      'TipCaptured',
      { questionId: answered, paymentRef: `pi_${answered}`, capturedAt: h.now().toISOString() },
      `checkout-${answered}`,
      2,
    );
    await eventually(
      async () =>
        (await api('GET', `/api/questions/${answered}`, undefined, ada.token)).body.tipStatus === 'captured',
    );

    // Integration events never carry e-mail addresses or question text.
    expect(JSON.stringify(published)).not.toMatch(/@example\.com|Tipped|In time/);
  });

  it('lets exactly one of answer, deletion and expiry win a race on the same tipped question (no deadlock, 409 for the losers)', async () => {
    const ids = Array.from({ length: 8 }, () => randomUUID());
    for (const id of ids) expect((await internal(id)).statusCode).toBe(201);
    for (const id of ids) await authorize(id);
    await eventually(
      async () =>
        (
          await h.database.db
            .selectFrom('questions')
            .select('id')
            .where('id', 'in', ids)
            .where('lifecycle', '=', 'pending')
            .execute()
        ).length === ids.length,
    );
    h.advance(ANSWER_WINDOW_MS + 60_000);
    const results = await Promise.all([
      ...ids.map((id) => api('PUT', `/api/questions/${id}/answer`, { answer: 'Racing.' }, ada.token)),
      ...ids.map((id) => api('PATCH', `/api/questions/${id}`, { deletedByReceiver: true }, ada.token)),
      h.a.ctx.scheduler.runDue(),
      h.b.ctx.scheduler.runDue(),
    ]);
    for (const r of results.slice(0, ids.length * 2) as { status: number }[])
      expect([200, 409]).toContain(r.status);
    await Promise.all([h.a.ctx.scheduler.runDue(), h.b.ctx.scheduler.runDue()]);
    for (const id of ids) {
      const events = await h.a.ctx.store.readStream(`question-${id}`);
      expect(events.map((e) => e.streamVersion)).toEqual(events.map((_, i) => i + 1));
      const captured = events.some(
        (e) => e.type === 'AnswerPosted' && (e.data as { tipToCapture: unknown }).tipToCapture,
      );
      const released = events.some(
        (e) =>
          ['AnswerWindowExpired', 'QuestionDeletedByReceiver'].includes(e.type) &&
          (e.data as { tipToRelease?: unknown }).tipToRelease,
      );
      // The tip is either captured or released, never both, and something decided it.
      expect(captured !== released).toBe(true);
      expect(events.filter((e) => e.type === 'AnswerWindowExpired').length).toBeLessThanOrEqual(1);
    }
  });

  it('declares params, query, body and response schemas on every route (all from contracts)', () => {
    expect(routesWithoutSchemas(h.a.app)).toEqual([]);
  });

  it('answers every call with the same fields as before the schemas (spec §3 Question, public view, withdraw)', async () => {
    const PUBLIC = [
      '_id', 'id', 'question', 'detail', 'answer', 'source', 'tags', 'status', 'isCurated', 'displayOnProfile',
      'deletedByReceiver', 'toUsername', 'recipientName', 'replierName', 'createdAt', 'updatedAt', 'answeredAt',
    ];
    const ASKER = [
      ...PUBLIC, 'toUserId', 'fromUsername', 'askedName', 'askedEmail', 'yourName', 'yourEmail', 'tip', 'tipAmount',
      'currency', 'tipStatus', 'answerDeadline', 'answerWindowExpired', 'isPrivate',
    ];
    const RECIPIENT = [...ASKER, 'toUserEmail'];
    const keys = (value: object) => Object.keys(value).sort();
    const asked = await api('POST', '/api/questions', { question: 'Shapes?', toUserId: ada.id }, bob.token);
    expect([asked.status, keys(asked.body)]).toEqual([201, [...ASKER].sort()]);
    const id = asked.body._id as string;
    expect(keys((await api('GET', `/api/questions/${id}`, undefined, bob.token)).body)).toEqual([...ASKER].sort());
    expect(keys((await api('GET', `/api/questions/${id}`, undefined, ada.token)).body)).toEqual([...RECIPIENT].sort());
    const inbox = await api('GET', '/api/questions?role=receiver', undefined, ada.token);
    expect(keys(inbox.body.find((q: { _id: string }) => q._id === id))).toEqual([...RECIPIENT].sort());
    const mine = await api('GET', '/api/questions?role=asker', undefined, bob.token);
    expect(keys(mine.body.find((q: { _id: string }) => q._id === id))).toEqual([...ASKER].sort());
    const answered = await api('PUT', `/api/questions/${id}/answer`, { answer: 'Round.' }, ada.token);
    expect([answered.status, keys(answered.body)]).toEqual([200, [...RECIPIENT].sort()]);
    expect(keys((await api('GET', `/api/questions/${id}`)).body)).toEqual([...PUBLIC].sort());
    const pub = await api('GET', '/api/questions?username=ada&role=receiver');
    expect(keys(pub.body.find((q: { _id: string }) => q._id === id))).toEqual([...PUBLIC].sort());
    const patched = await api('PATCH', `/api/questions/${id}`, { displayOnProfile: false }, ada.token);
    expect([patched.status, keys(patched.body)]).toEqual([200, [...RECIPIENT].sort()]);
    const curated = await api('POST', '/api/questions', { question: 'C?', answer: 'C.', isCurated: true }, ada.token);
    expect([curated.status, keys(curated.body)]).toEqual([201, [...RECIPIENT].sort()]);
    const other = (await api('POST', '/api/questions', { question: 'Withdraw?', toUserId: ada.id }, bob.token)).body;
    expect((await api('DELETE', `/api/questions/${other._id}`, undefined, bob.token)).body).toEqual({
      message: 'Question withdrawn',
    });
    const tipped = await internal(randomUUID());
    expect([tipped.statusCode, keys(tipped.json())]).toEqual([201, [...ASKER].sort()]);
    expect(tipped.json()).toMatchObject({ tip: 5, tipAmount: 500, status: 'Awaiting payment' });
  });

  describe('Idempotency-Key (issue 12): a retried ask or answer never creates a second question or answer', () => {
    const send = async (
      method: 'POST' | 'PUT',
      url: string,
      body: unknown,
      opts: { key: string; token?: string; instance?: QuestionsInstance },
    ) => {
      const res = await (opts.instance ?? h.a).app.inject({
        method,
        url,
        payload: body as never,
        headers: {
          'idempotency-key': opts.key,
          // One browser: a guest's key is scoped to its device token (ADR 0054).
          'x-ques-device': 'device-idempotencyidempotency',
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
      });
      return { status: res.statusCode, body: res.json(), replayed: res.headers['idempotent-replayed'] };
    };
    const guestBody = (question: string) => ({
      question,
      toUserId: ada.id,
      askedName: 'Ike',
      askedEmail: 'ike@example.com',
      agreedToTerms: true,
      tip: 0,
    });
    /**
     * The next command commits, then the response is lost (a 500). (This failed the read of the row after the commit
     * until an ask read its row inside its transaction, ADR 0042; the fault now comes right after the commit.)
     */
    const loseNextResponse = (instance: QuestionsInstance) => {
      const commands = instance.parts.commands;
      const handle = commands.handle.bind(commands);
      commands.handle = async (...args: Parameters<typeof handle>) => {
        commands.handle = handle;
        await handle(...args);
        throw new Error('connection lost after the commit');
      };
    };
    const askedCount = async (question: string) =>
      Number(
        (
          await h.database.db
            .selectFrom('questions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('question', '=', question)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('replays the first answer to the same key and body: one question, the same body', async () => {
      const key = randomUUID();
      const first = await send('POST', '/api/questions', guestBody('Idempotent once?'), { key });
      const again = await send('POST', '/api/questions', guestBody('Idempotent once?'), { key, instance: h.b });
      expect(first.status).toBe(201);
      expect([again.status, again.replayed]).toEqual([201, 'true']);
      expect(again.body).toEqual(first.body);
      expect(await askedCount('Idempotent once?')).toBe(1);
      expect(await count('QuestionAsked', first.body._id)).toBe(1);
    });

    it('refuses the same key with another body (422) and creates nothing', async () => {
      const key = randomUUID();
      expect((await send('POST', '/api/questions', guestBody('Key reused?'), { key })).status).toBe(201);
      const other = await send('POST', '/api/questions', guestBody('Another question?'), { key });
      expect([other.status, other.body.message]).toEqual([
        422,
        'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
      ]);
      expect(await askedCount('Another question?')).toBe(0);
    });

    it('answers a retry after "committed, then 500" with the question that exists, never a second QuestionAsked', async () => {
      const key = randomUUID();
      loseNextResponse(h.a);
      const lost = await send('POST', '/api/questions', guestBody('Committed then lost?'), { key });
      expect(lost.status).toBe(500);
      expect(await askedCount('Committed then lost?')).toBe(1);
      const retry = await send('POST', '/api/questions', guestBody('Committed then lost?'), { key, instance: h.b });
      expect(retry.status).toBe(201);
      expect(retry.replayed).toBeUndefined(); // not a stored reply: the route found the question it created
      expect(retry.body).toMatchObject({ question: 'Committed then lost?', askedEmail: 'ike@example.com', status: 'Pending' });
      expect(await askedCount('Committed then lost?')).toBe(1);
      expect(await count('QuestionAsked', retry.body._id)).toBe(1);
      // After a lost response a retry under the same key with another question is refused, not answered with this one.
      loseNextResponse(h.a);
      const key2 = randomUUID();
      expect((await send('POST', '/api/questions', guestBody('First of two?'), { key: key2 })).status).toBe(500);
      const changed = await send('POST', '/api/questions', guestBody('Second of two?'), { key: key2 });
      expect(changed.status).toBe(422);
      expect(await askedCount('Second of two?')).toBe(0);
    });

    it('does the same for a signed-in ask and a curated Q&A', async () => {
      const key = randomUUID();
      loseNextResponse(h.a);
      const body = { question: 'Signed in, lost?', toUserId: ada.id };
      expect((await send('POST', '/api/questions', body, { key, token: bob.token })).status).toBe(500);
      const retry = await send('POST', '/api/questions', body, { key, token: bob.token });
      expect([retry.status, retry.body.fromUsername]).toEqual([201, 'bob']);
      expect(await askedCount('Signed in, lost?')).toBe(1);

      const curate = { question: 'Curated, lost?', answer: 'Once.', isCurated: true };
      loseNextResponse(h.a);
      expect((await send('POST', '/api/questions', curate, { key, token: ada.token })).status).toBe(500);
      const curatedRetry = await send('POST', '/api/questions', curate, { key, token: ada.token });
      expect([curatedRetry.status, curatedRetry.body.isCurated]).toEqual([201, true]);
      expect(await askedCount('Curated, lost?')).toBe(1);
      expect(await count('QuestionCurated', curatedRetry.body._id)).toBe(1);
    });

    it('appends one AnswerPosted for an answer sent twice with one key, and for a retry after a lost response', async () => {
      const id = (await guestAsk(ada, 'Answer me once?')).body._id as string;
      const url = `/api/questions/${id}/answer`;
      const key = randomUUID();
      const first = await send('PUT', url, { answer: 'Once.', tags: ['one'] }, { key, token: ada.token });
      const again = await send('PUT', url, { answer: 'Once.', tags: ['one'] }, { key, token: ada.token });
      expect([first.status, again.status, again.replayed]).toEqual([200, 200, 'true']);
      expect(again.body).toEqual(first.body);
      expect(await count('AnswerPosted', id)).toBe(1);

      const lostId = (await guestAsk(ada, 'Answer lost?')).body._id as string;
      const lostKey = randomUUID();
      loseNextResponse(h.a);
      const lost = await send('PUT', `/api/questions/${lostId}/answer`, { answer: 'Lost.' }, { key: lostKey, token: ada.token });
      expect(lost.status).toBe(500);
      const retry = await send('PUT', `/api/questions/${lostId}/answer`, { answer: 'Lost.' }, { key: lostKey, token: ada.token });
      expect([retry.status, retry.body.status, retry.body.answer]).toEqual([200, 'Answered', 'Lost.']);
      expect(await count('AnswerPosted', lostId)).toBe(1);
    });
  });

  it("treats an account as a guest question's asker only once its e-mail is verified (issue 12)", async () => {
    const secret = (await guestAsk(ada, 'Whose private question?', { askedName: 'Vera', askedEmail: 'vera@example.com' }))
      .body._id as string;
    // Someone signs up with (or changes their address to) the guest's e-mail, without proving it.
    const userId = randomUUID();
    const claimant = snapshot({ userId, username: 'not-vera', email: 'vera@example.com' });
    await h.publishIdentity('UserRegistered', claimant, 1);
    await eventually(() => h.a.parts.recipients.byId(userId));
    const token = h.token({ id: userId, username: 'not-vera' });
    const refused = async () => {
      const view = await api('GET', `/api/questions/${secret}`, undefined, token);
      expect([view.status, view.body.message]).toEqual([404, 'Question not found']);
      expect((await api('GET', '/api/questions?role=asker', undefined, token)).body).toEqual([]);
      expect((await api('GET', '/api/questions', undefined, token)).body).toEqual([]);
      const withdraw = await api('DELETE', `/api/questions/${secret}`, undefined, token);
      expect([withdraw.status, withdraw.body.message]).toEqual([404, 'Question not found']);
      expect(withdraw.text).not.toMatch(/vera@|Whose/);
    };
    await refused();

    // Identity confirms the address: the guest's question is theirs now.
    await h.publishIdentity('ProfileUpdated', { ...claimant, emailVerified: true }, 2);
    await eventually(async () => (await h.a.parts.recipients.byId(userId))?.email_verified === true);
    expect((await api('GET', `/api/questions/${secret}`, undefined, token)).body).toMatchObject({
      _id: secret,
      askedEmail: 'vera@example.com',
    });
    expect((await api('GET', '/api/questions?role=asker', undefined, token)).body.map((q: { _id: string }) => q._id)).toEqual([
      secret,
    ]);

    // A changed address starts unverified again (identity resets the flag): the question detaches.
    await h.publishIdentity('ProfileUpdated', { ...claimant, emailVerified: false }, 3);
    await eventually(async () => (await h.a.parts.recipients.byId(userId))?.email_verified === false);
    await refused();

    await h.publishIdentity('ProfileUpdated', { ...claimant, emailVerified: true }, 4);
    await eventually(async () => (await h.a.parts.recipients.byId(userId))?.email_verified === true);
    expect((await api('DELETE', `/api/questions/${secret}`, undefined, token)).status).toBe(200);
  });

  it('takes the tip of a tipped question in cents as amountCents, its one name (the former tipAmount is not read)', async () => {
    const id = randomUUID();
    const created = await internal(id, { amountCents: 700 });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ tip: 7, tipAmount: 700 });
    const penny = await internal(randomUUID(), { amountCents: 99 });
    expect([penny.statusCode, penny.json().message]).toEqual([400, ASK_MESSAGES.penny]);
    const legacy = await internal(randomUUID(), { amountCents: undefined, tipAmount: 300 });
    expect([legacy.statusCode, legacy.json().message]).toEqual([400, ASK_MESSAGES.selectTip]);
  });

  it('lets go of a tipped question whose checkout ended unpaid (CheckoutExpired): once, no hold, nothing else touched', async () => {
    const gone = randomUUID();
    const asked = randomUUID();
    for (const id of [gone, asked]) expect((await internal(id)).statusCode).toBe(201);
    await authorize(asked);
    const lifecycle = async (id: string) =>
      (await h.database.db.selectFrom('questions').select('lifecycle').where('id', '=', id).executeTakeFirst())
        ?.lifecycle;
    await eventually(async () => (await lifecycle(asked)) === 'pending');
    const expire = (questionId: string, paymentRef = `pi_${questionId}`) =>
      h.publish(
        'payments',
        'CheckoutExpired',
        { questionId, paymentRef, expiredAt: h.now().toISOString() },
        `tip-${questionId}`,
      );
    const refund = (questionId: string) =>
      h.publish(
        'payments',
        'TipRefunded',
        { questionId, paymentRef: `pi_${questionId}`, refundedAt: h.now().toISOString() },
        `tip-${questionId}`,
      );
    // What payments publishes when a checkout ends unpaid: the release, then the expiry.
    expect(await lifecycle(gone)).toBe('awaiting_payment');
    await refund(gone);
    await expire(gone);
    await eventually(async () => (await lifecycle(gone)) === undefined);

    // Repeated, late, for an asked question, for another checkout, for a question never handed over: nothing.
    await expire(gone);
    await refund(gone);
    await expire(asked);
    const other = randomUUID();
    expect((await internal(other)).statusCode).toBe(201);
    await expire(other, 'pi_another_checkout');
    await expire(randomUUID());
    await h.consumerIdle('payments', 'questions--tips');
    expect(
      await h.database.db.selectFrom('dead_letters').select('subject').where('consumer', '=', 'questions--tips').execute(),
    ).toEqual([]);
    expect(await count('TippedCheckoutExpired', gone)).toBe(1);
    expect(await count('TippedCheckoutExpired')).toBe(1);
    expect(await lifecycle(asked)).toBe('pending');
    expect(await lifecycle(other)).toBe('awaiting_payment');
    // Gone for everyone, its recipient included, and never asked later (a late authorization changes nothing).
    expect((await api('GET', `/api/questions/${gone}`, undefined, ada.token)).status).toBe(404);
    await authorize(gone);
    await h.consumerIdle('payments', 'questions--tips');
    expect(await lifecycle(gone)).toBeUndefined();
    expect(await count('QuestionAsked', gone)).toBe(0);
  });

  it('rebuilds the read model from the event store into the same rows', async () => {
    const before = await h.database.db.selectFrom('questions').selectAll().orderBy('id').execute();
    // The stats' rows too: a rebuild writes the new ones of both tables by COPY (ADR 0039).
    const timingsBefore = await h.database.db.selectFrom('trust_timings').selectAll().orderBy('question_id').execute();
    await h.database.db
      .updateTable('questions')
      .set({ question: 'corrupted', lifecycle: 'withdrawn' })
      .execute();
    expect(await rebuildProjections(h.a.ctx.store, log)).toBeGreaterThan(20);
    const after = await h.database.db.selectFrom('questions').selectAll().orderBy('id').execute();
    expect(after).toEqual(before);
    expect(timingsBefore.length).toBeGreaterThan(0);
    expect(await h.database.db.selectFrom('trust_timings').selectAll().orderBy('question_id').execute()).toEqual(timingsBefore);
  });

  it('rebuilds a long run of new questions in multi-row inserts, however long the run', async () => {
    // 3,500 consecutive asks (~22 parameters each): more rows than one statement may carry parameters for, so the batch must split.
    const owner = { userId: randomUUID(), username: 'batch-owner', name: 'Batch Owner', email: 'batch.owner@example.com' };
    const events = Array.from({ length: 3_500 }, (_, i) => ({
      globalPosition: i + 1,
      eventId: randomUUID(),
      streamId: `question-batch-${i}`,
      streamVersion: 1,
      type: 'QuestionAsked',
      data: {
        questionId: randomUUID(),
        recipient: owner,
        asker: { userId: null, username: 'guest', name: 'Gus', email: 'gus@example.com' },
        question: `Batch question ${i}?`,
        detail: '',
        tip: null,
        askedAt: new Date(Date.now() - i * 1000).toISOString(),
        answerDeadline: null,
      },
      metadata: { correlationId: 'test', causationId: null, actor: null },
      recordedAt: new Date(),
    }));
    await h.database.db.transaction().execute(async (trx) => {
      await questionsProjection.applyBatch!(trx, events);
    });
    const rows = await h.database.db.selectFrom('questions').select('id').where('to_user_id', '=', owner.userId).execute();
    expect(rows).toHaveLength(3_500);
  });

  it('folds a batch\'s later events into the rows its first events ask (each written once, ADR 0039), as apply leaves them', async () => {
    const owner = { userId: randomUUID(), username: 'fold-owner', name: 'Fold Owner', email: 'fold.owner@example.com' };
    const asker = { userId: null, username: 'guest', name: 'Gus', email: 'gus@example.com' };
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 7, minute)).toISOString();
    const tip = { amount: 500, currency: 'eur', paymentRef: 'pi_fold' };
    // Three questions: answered then hidden from the profile; withdrawn; a tipped one whose checkout expired.
    const script = (ids: string[]) => {
      const [answered, withdrawn, expired] = ids as [string, string, string];
      const asked = (questionId: string) => ({ questionId, recipient: owner, asker, question: 'Fold question?', detail: 'd', tip: null, askedAt: at(1), answerDeadline: null });
      const events: [string, number, string, unknown][] = [
        [answered, 1, 'QuestionAsked', asked(answered)],
        [withdrawn, 1, 'QuestionAsked', asked(withdrawn)],
        [expired, 1, 'TippedQuestionSubmitted', { ...asked(expired), tip, submittedAt: at(1) }],
        [answered, 2, 'AnswerPosted', { questionId: answered, recipientUserId: owner.userId, askerUserId: null, answer: 'Yes\tindeed', tags: ['a', 'b'], displayOnProfile: true, replierName: 'Fold Owner', answeredAt: at(2), tipToCapture: null }],
        [withdrawn, 2, 'QuestionWithdrawn', { questionId: withdrawn, withdrawnAt: at(3), tipToRelease: null }],
        [answered, 3, 'QuestionVisibilityChanged', { questionId: answered, displayOnProfile: false, changedAt: at(4) }],
        [expired, 2, 'TippedCheckoutExpired', { questionId: expired, paymentRef: 'pi_fold', expiredAt: at(5) }],
      ];
      return events.map(([id, streamVersion, type, data], i) => ({
        globalPosition: i + 1, eventId: randomUUID(), streamId: `question-${id}`, streamVersion, type, data,
        metadata: { correlationId: 'test', causationId: null, actor: null }, recordedAt: new Date(),
      }));
    };
    const live = [randomUUID(), randomUUID(), randomUUID()];
    const rebuilt = [randomUUID(), randomUUID(), randomUUID()];
    const written: Record<string, unknown>[][] = [];
    await h.database.db.transaction().execute(async (trx) => {
      for (const event of script(live)) await questionsProjection.apply(trx, event);
      await questionsProjection.applyBatch!(trx, script(rebuilt), {
        via: 'copy',
        insertNew: async (table, rows) => {
          written.push([...rows]);
          await insertRowsAsJson(trx, table, rows);
        },
      });
    });
    // Written once, already answered (and hidden) / withdrawn; the expired checkout never written at all.
    expect(written).toHaveLength(1);
    expect(written[0]!.map((row) => [row.id, row.lifecycle, row.version])).toEqual([
      [rebuilt[0], 'answered', 3],
      [rebuilt[1], 'withdrawn', 2],
    ]);
    const rows = async (ids: string[]) =>
      (await h.database.db.selectFrom('questions').selectAll().where('id', 'in', ids).execute())
        .map(({ id, ...row }) => ({ at: ids.indexOf(id), ...row }))
        .sort((a, b) => a.at - b.at);
    expect(await rows(rebuilt)).toEqual(await rows(live));
    expect(await rows(live)).toHaveLength(2);
  });

  it('serves the public list and the inbox with one index range scan each (EXPLAIN on 20k rows)', async () => {
    // Bulk rows for 20 owners (1,000 each, more than a page) straight into the read model, then planner statistics.
    await sql`INSERT INTO questions (id, lifecycle, question, to_user_id, to_username, recipient_name, to_user_email, from_username, asked_name, created_at, updated_at, version,
        display_on_profile, deleted_by_receiver, answer)
      SELECT gen_random_uuid(), CASE WHEN i % 3 = 0 THEN 'pending' ELSE 'answered' END, 'bulk ' || i,
        ('00000000-0000-4000-8000-' || lpad((i % 20)::text, 12, '0'))::uuid, 'bulk-' || (i % 20), 'Bulk', 'bulk@example.com', 'guest', 'G',
        now() - (i || ' seconds')::interval, now(), 1, i % 7 <> 0, i % 11 = 0, 'a'
      FROM generate_series(1, 20000) AS i`.execute(h.database.db);
    await sql`ANALYZE questions`.execute(h.database.db);
    /** Every node of an EXPLAIN (FORMAT JSON) plan. */
    const nodes = async (query: { explain: (format: 'json') => Promise<unknown[]> }) => {
      const [row] = (await query.explain('json')) as { 'QUERY PLAN': { Plan: PlanNode }[] }[];
      type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] };
      const flat: PlanNode[] = [];
      const walk = (n: PlanNode) => void (flat.push(n), n.Plans?.forEach(walk));
      walk(row!['QUERY PLAN'][0]!.Plan);
      return flat.map((n) => `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}`);
    };
    const read = h.a.parts.questions;
    const after = { createdAt: new Date().toISOString(), id: randomUUID() };
    // One index range scan under the LIMIT: no sort (the index order is the list order), no heap-wide scan.
    expect(await nodes(read.publicListQuery('bulk-7', 100, null))).toEqual([
      'Limit',
      'Index Scan using questions_public',
    ]);
    expect(await nodes(read.publicListQuery('bulk-7', 100, after))).toEqual([
      'Limit',
      'Index Scan using questions_public',
    ]);
    expect(await nodes(read.inboxQuery('00000000-0000-4000-8000-000000000007', 100, null))).toEqual([
      'Limit',
      'Index Scan using questions_inbox_with_withdrawn',
    ]);
    expect(await nodes(read.inboxQuery('00000000-0000-4000-8000-000000000007', 100, after))).toEqual([
      'Limit',
      'Index Scan using questions_inbox_with_withdrawn',
    ]);
    // "Already answered?" with a typo in every word (issue 14): the owner's public titles by trigrams, through the
    // index keyed by owner and trigrams, not a check of each of the owner's answers.
    expect(await nodes(read.similarTitlesQuery('bulk-7', 'bulk 1O7', 3))).toEqual(
      expect.arrayContaining([expect.stringMatching(/Index Scan using questions_public_title_trigrams$/)]),
    );
    // ... and the newest matches of a word every answer has from the owner's search index alone (once vacuumed, as
    // autovacuum keeps a live table): the table is read for the rows shown only.
    await sql`VACUUM questions`.execute(h.database.db);
    expect(await nodes(read.similarSearchQuery('bulk-7', ['bulk'], 3))).toEqual(
      expect.arrayContaining(['Index Only Scan using questions_public_search']),
    );

    if (process.env.QUES_SHOW_PLANS) {
      const analyze = async (query: { compile: () => { sql: string; parameters: readonly unknown[] } }) => {
        const { sql: text, parameters } = query.compile();
        const inlined = text.replace(/\$(\d+)/g, (_m, n: string) => `'${String(parameters[Number(n) - 1])}'`);
        const { rows } = await sql<{
          'QUERY PLAN': string;
        }>`EXPLAIN (ANALYZE, BUFFERS) ${sql.raw(inlined)}`.execute(h.database.db);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      };
      console.log(`public list, first page:\n${await analyze(read.publicListQuery('bulk-7', 100, null))}`);
      console.log(
        `inbox, next page:\n${await analyze(read.inboxQuery('00000000-0000-4000-8000-000000000007', 100, after))}`,
      );
    }
  });
});
