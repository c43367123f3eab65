import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections } from '@ques/kit';
import { eventually, infraGate, natsTestUrl, postgresServerUrl } from '@ques/kit/testing';
import {
  guestQuestion,
  log,
  registerUser,
  startHarness,
  type Harness,
  type QuestionsInstance,
} from '../test/harness.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

type User = Awaited<ReturnType<typeof registerUser>>;
type Listed = { id: string; question: string; toUserEmail?: string; askedEmail?: string }[];

const INBOX = '/api/questions?role=receiver&limit=50';

/**
 * The read cache of `GET /api/questions` (ADR 0040), on two instances of questions with a database handle each (as
 * two processes): what one instance's append changes reaches the other's cache by NOTIFY only.
 *
 * To see whether a read came from the cache, the tests change a row behind the service's back (no event, no
 * NOTIFY): a cached list still shows the old row, a list read from the database shows the change.
 */
describe.runIf(run)('questions list read cache (ADR 0040), two instances on one database', () => {
  let h: Harness;
  let ada: User;
  let bob: User;
  let eve: User;

  const call = async (instance: QuestionsInstance, url: string, token?: string, body?: unknown) => {
    const res = await instance.app.inject({
      method: body ? 'POST' : 'GET',
      url,
      payload: body as never,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
  };
  const list = async (instance: QuestionsInstance, url: string, token?: string) => {
    const res = await call(instance, url, token);
    expect(res.status).toBe(200);
    return res.body as Listed;
  };
  const ask = async (instance: QuestionsInstance, to: User, question: string, token?: string) => {
    const res = await call(instance, '/api/questions', token, guestQuestion(to, question, { isCurated: false }));
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  /** Changes a row without an event: only a read from the database sees it. */
  const behindTheCache = async (id: string, question: string) => {
    await h.database.db.updateTable('questions').set({ question }).where('id', '=', id).execute();
  };
  /** A question to Ada she answered: the one row of her public page (earlier ones are removed from the table). */
  const answeredQuestion = async () => {
    await h.database.db.deleteFrom('questions').where('lifecycle', '=', 'answered').execute();
    const answered = await ask(h.a, ada, 'Will be public?');
    const put = await h.a.app.inject({
      method: 'PUT',
      url: `/api/questions/${answered.id}/answer`,
      payload: { answer: 'Yes.' },
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(put.statusCode).toBe(200);
    return answered;
  };
  const textOf = (rows: Listed, id: string) => rows.find((q) => q.id === id)?.question;

  beforeAll(async () => {
    h = await startHarness(natsUrl!, { separateDatabases: true });
    ada = await registerUser(h, { username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' });
    bob = await registerUser(h, { username: 'bob', name: 'Bob Asker', email: 'bob@example.com', emailVerified: true });
    eve = await registerUser(h, { username: 'eve', name: 'Eve Stranger', email: 'eve@example.com' });
    // b knows them too before anything is read there (its consumer copy or a's, through the shared tables).
    await eventually(() => h.b.parts.recipients.byId(eve.id));
  });
  afterAll(async () => h?.close());

  it('serves a cached inbox, and shows a new ask in the very next read on the same instance', async () => {
    const first = await ask(h.a, ada, 'First question?');
    expect(textOf(await list(h.a, INBOX, ada.token), first.id)).toBe('First question?');
    await behindTheCache(first.id, 'Changed behind the cache');
    // From the cache: the change made without an event is not seen.
    expect(textOf(await list(h.a, INBOX, ada.token), first.id)).toBe('First question?');

    const second = await ask(h.a, ada, 'Second question?');
    const next = await list(h.a, INBOX, ada.token);
    expect(next.map((q) => q.id)).toEqual([second.id, first.id]);
    // Read again from the database.
    expect(textOf(next, first.id)).toBe('Changed behind the cache');
  });

  it("empties an instance's cache when another instance appends (NOTIFY), well before the max age", async () => {
    const before = await list(h.b, INBOX, ada.token);
    const [newest] = before;
    await behindTheCache(newest!.id, 'Changed again behind the cache');
    expect(textOf(await list(h.b, INBOX, ada.token), newest!.id)).not.toBe('Changed again behind the cache');

    const third = await ask(h.a, ada, 'Third question, asked on a?');
    const seen = await eventually(async () => {
      const rows = await list(h.b, INBOX, ada.token);
      return rows[0]?.id === third.id ? rows : null;
    }, 2_000);
    expect(textOf(seen, newest!.id)).toBe('Changed again behind the cache');
  });

  it("never gives anyone another user's list: same query, other caller, other answer", async () => {
    const bobs = await ask(h.a, ada, 'Asked by Bob, signed in?', bob.token);
    const answered = await answeredQuestion();

    for (const instance of [h.a, h.b]) {
      // Ada's inbox and the public page are cached first, then others ask the same queries.
      const inbox = await list(instance, INBOX, ada.token);
      expect(inbox.map((q) => q.id)).toEqual(expect.arrayContaining([bobs.id, answered.id]));
      expect(inbox.every((q) => q.toUserEmail === 'ada@example.com')).toBe(true);
      const publicPage = await list(instance, '/api/questions?username=ada&limit=50');
      expect(publicPage.map((q) => q.id)).toEqual([answered.id]);

      expect(await list(instance, INBOX, eve.token)).toEqual([]);
      expect(await list(instance, '/api/questions?limit=50', eve.token)).toEqual([]);
      expect((await call(instance, INBOX)).status).toBe(401);
      // Bob sees the one he asked, as its asker (no recipient e-mail).
      const bobAsked = await list(instance, '/api/questions?role=asker&limit=50', bob.token);
      expect(bobAsked.map((q) => q.id)).toEqual([bobs.id]);
      expect(bobAsked[0]!.toUserEmail).toBeUndefined();
      expect(await list(instance, INBOX, bob.token)).toEqual([]);
      // The public page is the same for a signed-in caller, and holds nothing private.
      const asEve = await list(instance, '/api/questions?username=ada&limit=50', eve.token);
      expect(asEve).toEqual(publicPage);
      expect(asEve[0]!.askedEmail).toBeUndefined();
      expect(asEve[0]!.toUserEmail).toBeUndefined();
      // And Ada's inbox is still hers after all of them.
      expect(await list(instance, INBOX, ada.token)).toEqual(inbox);
    }
  });

  it("empties the caches when a rebuild swaps its tables in (this instance at once, the other by NOTIFY)", async () => {
    const answered = await answeredQuestion();
    const [shown] = await list(h.a, '/api/questions?username=ada&limit=50');
    expect(shown!.id).toBe(answered.id);
    // The public row disappears behind the service's back; an append empties the caches, which then keep the
    // damaged page.
    await h.database.db.deleteFrom('questions').where('id', '=', shown!.id).execute();
    await ask(h.a, ada, 'Pending, not on the public page?');
    await eventually(async () => (await list(h.b, '/api/questions?username=ada&limit=50')).length === 0, 2_000);
    expect(await list(h.a, '/api/questions?username=ada&limit=50')).toEqual([]);
    await eventually(async () => (await list(h.b, '/api/questions?username=ada&limit=50')).length === 0, 2_000);

    // The rebuild restores the row from the events: no cache may keep the damaged page.
    await rebuildProjections(h.a.ctx.store, log);
    const restored = async (instance: QuestionsInstance) =>
      (await list(instance, '/api/questions?username=ada&limit=50')).some((q) => q.id === shown!.id);
    expect(await restored(h.a)).toBe(true);
    await eventually(() => restored(h.b), 2_000);
  });
});

describe.runIf(run)('questions list with READ_CACHE=off', () => {
  let h: Harness;
  afterAll(async () => h?.close());
  beforeAll(async () => {
    h = await startHarness(natsUrl!, { env: { READ_CACHE: 'off' } });
  });

  it('reads every list from the database', async () => {
    const ada = await registerUser(h, { username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' });
    const res = await h.a.app.inject({ method: 'POST', url: '/api/questions', payload: guestQuestion(ada, 'Uncached?', { isCurated: false }) });
    const { id } = res.json<{ id: string }>();
    const read = async () =>
      (await h.a.app.inject({ method: 'GET', url: INBOX, headers: { authorization: `Bearer ${ada.token}` } })).json<Listed>();
    expect((await read())[0]!.question).toBe('Uncached?');
    await h.database.db.updateTable('questions').set({ question: 'Changed' }).where('id', '=', id).execute();
    expect((await read())[0]!.question).toBe('Changed');
  });
});
