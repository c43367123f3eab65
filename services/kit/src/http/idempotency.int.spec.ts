import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectEmbedded,
  connectPostgres,
  isUniqueViolation,
  openEmbeddedPostgres,
  type Database,
} from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { kitIdempotencyMigration } from '../db/migrations/index.js';
import { idempotencyView, type IdempotencyTables, type KitTables } from '../db/schema.js';
import type { EmbeddedPostgres } from '../db/pglite-dialect.js';
import { badRequest, notFound } from '../errors.js';
import { createTestDatabase, infraGate, postgresServerUrl, type TestDatabase } from '../testing/infra.js';
import { createTestTokenSigner, type TestTokenSigner } from '../testing/identities.js';
import { silentLog } from '../test/fixture.js';
import { registerJwt } from './auth.js';
import { optionalUser } from './auth.js';
import { createHttpApp } from './http-app.js';
import { generateJwtKeys } from './keys.js';
import {
  IDEMPOTENCY_MESSAGES,
  idempotentId,
  registerIdempotency,
} from './idempotency.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

const LEASE_MS = 5_000;
const DAY_MS = 24 * 3600_000;

/** The kit's tables, the Idempotency-Key table and the widgets this test creates. */
interface WidgetsDB extends KitTables, IdempotencyTables {
  widgets: { id: string; owner: string; name: string };
}

const migrations = {
  '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
  '2026_11_23_0002_widgets': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('widgets')
        .addColumn('id', 'uuid', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
    },
  },
};

/** What the test does to the next run of the route (failures are server-side, so a retry can send the same body). */
interface Script {
  failBeforeCommit: boolean;
  failAfterCommit: boolean;
  /** The handler commits, then waits for this before answering (a request in flight, or a process that died). */
  holdAfterCommit: Promise<void> | null;
  committed: () => void;
  /** How many of the next writes that settle a claim (its release or its stored response) fail: the database away. */
  failSettles: number;
}

/**
 * A small service on the kit's app: `POST /widgets` opts in and keys its effect with idempotentId, as a command route
 * does (a retry of a committed request finds the row and answers with it); `POST /plain` does not opt in.
 */
async function widgetApp(database: Database<WidgetsDB>, clock: () => Date, keys: ReturnType<typeof generateJwtKeys>) {
  const app = createHttpApp({ name: 'widgets', log: silentLog });
  await registerJwt(app, { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' });
  const runs = { count: 0 };
  const script: Script = {
    failBeforeCommit: false,
    failAfterCommit: false,
    holdAfterCommit: null,
    committed: () => {},
    failSettles: 0,
  };
  // Fails the claim's release or store before it reaches the database, as a dropped connection does. The mechanism's
  // statements are compiled once (ADR 0049), so the fault sits where each execution passes: `executeQuery`.
  const base = idempotencyView(database.db);
  const keysDb = new Proxy(base, {
    get(target, prop) {
      if (prop === 'executeQuery')
        return (query: CompiledQuery) => {
          const kind = query.query.kind;
          if ((kind === 'DeleteQueryNode' || kind === 'UpdateQueryNode') && script.failSettles > 0) {
            script.failSettles -= 1;
            return Promise.reject(new Error('Connection terminated unexpectedly'));
          }
          return target.executeQuery(query);
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  registerIdempotency(app, { database: { db: keysDb }, log: silentLog, clock, leaseMs: LEASE_MS });
  const { db } = database;

  const create = async (owner: string, id: string, name: string) => {
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('widgets').values({ id, owner, name }).execute();
        if (script.failBeforeCommit) {
          script.failBeforeCommit = false;
          throw new Error('connection dropped before commit');
        }
      });
      return 'created' as const;
    } catch (error) {
      // The keyed effect: the first attempt committed this very id; answer with it instead of making another.
      if (isUniqueViolation(error)) return 'existing' as const;
      throw error;
    }
  };

  app.post('/widgets', { config: { idempotent: true } }, async (request, reply) => {
    runs.count += 1;
    const user = await optionalUser(request);
    const { name } = (request.body ?? {}) as { name?: unknown };
    if (typeof name !== 'string' || !name.trim()) throw badRequest('Please name the widget.');
    const id = idempotentId(request);
    await create(user?.sub ?? 'guest', id, name);
    if (script.failAfterCommit) {
      script.failAfterCommit = false;
      throw new Error('connection dropped after commit');
    }
    if (script.holdAfterCommit) {
      const hold = script.holdAfterCommit;
      script.holdAfterCommit = null;
      script.committed();
      await hold;
    }
    const row = await db.selectFrom('widgets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return reply.status(201).header('location', `/widgets/${id}`).send(row);
  });
  // Acts on a widget that may not exist yet (as answering a question its owner cannot see yet): 404 until it does.
  app.post('/widgets/:id/polish', { config: { idempotent: true } }, async (request, reply) => {
    runs.count += 1;
    const { id } = request.params as { id: string };
    const row = await db.selectFrom('widgets').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Widget not found.');
    return reply.status(200).send({ ...row, polished: true });
  });
  app.post('/plain', async () => {
    runs.count += 1;
    return { ok: true, n: runs.count };
  });
  await app.ready();
  return { app, runs, script };
}

for (const kind of ['postgres', 'embedded'] as const) {
  describe.runIf(run || kind === 'embedded')(
    `Idempotency-Key on ${kind === 'postgres' ? 'real Postgres' : 'the embedded PGlite'}`,
    () => {
      let testDb: TestDatabase | null = null;
      let embedded: EmbeddedPostgres | null = null;
      let database: Database<WidgetsDB>;
      let app: FastifyInstance;
      let runs: { count: number };
      let script: Script;
      let signer: TestTokenSigner;
      let offsetMs = 0;
      const clock = () => new Date(Date.now() + offsetMs);
      const keys = generateJwtKeys();
      const ada = { id: randomUUID(), username: 'ada' };
      const bob = { id: randomUUID(), username: 'bob' };
      let adaToken: string;
      let bobToken: string;

      beforeAll(async () => {
        if (kind === 'postgres') {
          testDb = await createTestDatabase();
          database = connectPostgres<WidgetsDB>({ connectionString: testDb.url, schema: 'questions' });
        } else {
          embedded = await openEmbeddedPostgres();
          database = connectEmbedded<WidgetsDB>(embedded, 'questions');
        }
        await migrate(database, migrations);
        ({ app, runs, script } = await widgetApp(database, clock, keys));
        signer = await createTestTokenSigner(keys);
        adaToken = signer.sign(ada);
        bobToken = signer.sign(bob);
      });
      afterAll(async () => {
        await app?.close();
        await signer?.close();
        await database?.close();
        await testDb?.drop();
        await embedded?.pglite.close();
      });
      beforeEach(() => {
        offsetMs = 0;
      });

      const post = (payload: unknown, key?: string, token?: string, url = '/widgets', device?: string) =>
        app.inject({
          method: 'POST',
          url,
          payload: payload as Record<string, unknown>,
          headers: {
            ...(key === undefined ? {} : { 'idempotency-key': key }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(device ? { 'x-ques-device': device } : {}),
          },
        });
      const DEVICE_A = 'device-aaaaaaaaaaaaaaaaaaaaaaaa';
      const DEVICE_B = 'device-bbbbbbbbbbbbbbbbbbbbbbbb';
      const widgets = async (name: string) =>
        (await database.db.selectFrom('widgets').selectAll().where('name', '=', name).execute()).length;

      it('replays the first response (status, body, location) for the same key and body, without running the route again', async () => {
        const key = randomUUID();
        const first = await post({ name: 'replayed', size: { w: 1, h: 2 } }, key, adaToken);
        expect(first.statusCode).toBe(201);
        expect(first.headers['idempotent-replayed']).toBeUndefined();
        const before = runs.count;
        // Object keys in another order are the same request.
        const again = await post({ size: { h: 2, w: 1 }, name: 'replayed' }, key, adaToken);
        expect(again.statusCode).toBe(201);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.headers.location).toBe(first.headers.location);
        expect(again.headers['content-type']).toBe(first.headers['content-type']);
        expect(again.json()).toEqual(first.json());
        expect(runs.count).toBe(before);
        expect(await widgets('replayed')).toBe(1);
      });

      it('answers 422 to the same key with another body or another route, and never runs the route for it', async () => {
        const key = randomUUID();
        expect((await post({ name: 'first body' }, key, adaToken)).statusCode).toBe(201);
        const before = runs.count;
        const other = await post({ name: 'second body' }, key, adaToken);
        expect(other.statusCode).toBe(422);
        expect(other.json()).toEqual({ message: IDEMPOTENCY_MESSAGES.mismatch, code: 'UNPROCESSABLE' });
        expect((await post({ name: 'first body' }, key, adaToken, '/widgets?copy=1')).statusCode).toBe(422);
        expect(runs.count).toBe(before);
        expect(await widgets('second body')).toBe(0);
      });

      it('keeps keys apart per caller: another user or a guest with the same key gets its own run, never the first response', async () => {
        const key = randomUUID();
        const mine = await post({ name: 'scoped' }, key, adaToken);
        const theirs = await post({ name: 'scoped' }, key, bobToken);
        const guest = await post({ name: 'scoped' }, key, undefined, '/widgets', DEVICE_A);
        for (const res of [mine, theirs, guest]) {
          expect(res.statusCode).toBe(201);
          expect(res.headers['idempotent-replayed']).toBeUndefined();
        }
        expect(new Set([mine.json().id, theirs.json().id, guest.json().id]).size).toBe(3);
        expect(theirs.json().owner).toBe(bob.id);
        expect(await widgets('scoped')).toBe(3);
        // A forged or expired token is a 401 before any key is looked at.
        expect((await post({ name: 'scoped' }, key, 'not-a-jwt')).statusCode).toBe(401);
      });

      it('scopes a guest key to the device token and the asker e-mail (issue 33 finding 3): never another guest’s response', async () => {
        const key = randomUUID();
        const body = { name: 'guest widget', askedEmail: 'Ann@example.com' };
        // Without a device token a guest's key is refused, in words that say what to do.
        const bare = await post(body, key);
        expect([bare.statusCode, bare.json().message]).toEqual([400, IDEMPOTENCY_MESSAGES.guestDevice]);
        expect((await post(body, key, undefined, '/widgets', 'short')).statusCode).toBe(400);
        const ann = await post(body, key, undefined, '/widgets', DEVICE_A);
        expect(ann.statusCode).toBe(201);
        // Another guest with the same key and body runs on their own; with another body they are not blocked (no 422).
        const ben = await post(body, key, undefined, '/widgets', DEVICE_B);
        expect([ben.statusCode, ben.headers['idempotent-replayed']]).toEqual([201, undefined]);
        expect(ben.json().id).not.toBe(ann.json().id);
        // Nor can one guest squat a key another will use: their body under it does not make the other's a 422.
        const squatted = randomUUID();
        expect((await post({ name: 'squatter' }, squatted, undefined, '/widgets', DEVICE_B)).statusCode).toBe(201);
        expect((await post(body, squatted, undefined, '/widgets', DEVICE_A)).statusCode).toBe(201);
        const cat = await post({ name: 'cat widget', askedEmail: 'cat@example.com' }, key, undefined, '/widgets', DEVICE_A);
        expect([cat.statusCode, cat.headers['idempotent-replayed']]).toEqual([201, undefined]);
        // Ann's own retry replays hers.
        const again = await post(body, key, undefined, '/widgets', DEVICE_A);
        expect([again.headers['idempotent-replayed'], again.json().id]).toEqual(['true', ann.json().id]);
        // Once the key expired, another guest's reuse of it names a thing of their own, never Ann's.
        offsetMs = DAY_MS + 60_000;
        const later = await post({ name: 'guest widget', askedEmail: 'dan@example.com' }, key, undefined, '/widgets', DEVICE_B);
        expect(later.statusCode).toBe(201);
        expect([ann.json().id, ben.json().id, cat.json().id]).not.toContain(later.json().id);
        offsetMs = 0;
      });

      it('answers 409 to a duplicate while the first request is still in flight, then replays once it finished', async () => {
        const key = randomUUID();
        let release!: () => void;
        script.holdAfterCommit = new Promise((resolve) => (release = resolve));
        const committed = new Promise<void>((resolve) => (script.committed = resolve));
        const first = post({ name: 'in flight' }, key, adaToken);
        await committed;
        const duplicate = await post({ name: 'in flight' }, key, adaToken);
        expect(duplicate.statusCode).toBe(409);
        expect(duplicate.json()).toEqual({ message: IDEMPOTENCY_MESSAGES.inProgress, code: 'CONFLICT' });
        // A different body is still a 422, in flight or not.
        expect((await post({ name: 'in flight, changed' }, key, adaToken)).statusCode).toBe(422);
        release();
        expect((await first).statusCode).toBe(201);
        const later = await post({ name: 'in flight' }, key, adaToken);
        expect(later.statusCode).toBe(201);
        expect(later.headers['idempotent-replayed']).toBe('true');
        expect(await widgets('in flight')).toBe(1);
      });

      it('does not store a 5xx: a retry with the same key runs the route again', async () => {
        const key = randomUUID();
        script.failBeforeCommit = true;
        const failed = await post({ name: 'after a 500' }, key, adaToken);
        expect(failed.statusCode).toBe(500);
        const before = runs.count;
        const retried = await post({ name: 'after a 500' }, key, adaToken);
        expect(retried.statusCode).toBe(201);
        expect(retried.headers['idempotent-replayed']).toBeUndefined();
        expect(runs.count).toBe(before + 1);
        expect(await widgets('after a 500')).toBe(1);
      });

      it('releases a 5xx claim the database refused at first in the background: a retry runs long before the lease ends', async () => {
        const key = randomUUID();
        script.failBeforeCommit = true;
        script.failSettles = 1;
        const failed = await post({ name: 'released later' }, key, adaToken);
        expect(failed.statusCode).toBe(500);
        expect(script.failSettles).toBe(0);
        // The clock stands still here, so the lease (5 s) cannot be what lets the retry through.
        const frozenAt = Date.now();
        offsetMs = 0;
        let retried = await post({ name: 'released later' }, key, adaToken);
        for (let i = 0; i < 30 && retried.statusCode === 409; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          offsetMs = frozenAt - Date.now();
          retried = await post({ name: 'released later' }, key, adaToken);
        }
        expect(retried.statusCode).toBe(201);
        expect(await widgets('released later')).toBe(1);
      });

      it('stores an answer the database refused at first in the background: the retry replays it, the route runs once', async () => {
        const key = randomUUID();
        script.failSettles = 1;
        const first = await post({ name: 'stored later' }, key, adaToken);
        expect(first.statusCode).toBe(201);
        const before = runs.count;
        const frozenAt = Date.now();
        let again = await post({ name: 'stored later' }, key, adaToken);
        for (let i = 0; i < 30 && again.statusCode === 409; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          offsetMs = frozenAt - Date.now();
          again = await post({ name: 'stored later' }, key, adaToken);
        }
        expect(again.statusCode).toBe(201);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json()).toEqual(first.json());
        expect(runs.count).toBe(before);
      });

      it('stores a 4xx: the same request with the same key gets the same 400 without running again', async () => {
        const key = randomUUID();
        const bad = await post({ name: ' ' }, key, adaToken);
        expect(bad.statusCode).toBe(400);
        const before = runs.count;
        const again = await post({ name: ' ' }, key, adaToken);
        expect(again.statusCode).toBe(400);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json()).toEqual({ message: 'Please name the widget.', code: 'BAD_REQUEST' });
        expect(runs.count).toBe(before);
      });

      it('does not store a 404: once the widget exists, a retry with the same key runs and succeeds', async () => {
        const key = randomUUID();
        const id = randomUUID();
        const early = await post({}, key, adaToken, `/widgets/${id}/polish`);
        expect(early.statusCode).toBe(404);
        await database.db.insertInto('widgets').values({ id, owner: ada.id, name: 'arrives late' }).execute();
        const before = runs.count;
        const retried = await post({}, key, adaToken, `/widgets/${id}/polish`);
        expect(retried.statusCode).toBe(200);
        expect(retried.headers['idempotent-replayed']).toBeUndefined();
        expect(retried.json()).toMatchObject({ id, polished: true });
        expect(runs.count).toBe(before + 1);
        const replayed = await post({}, key, adaToken, `/widgets/${id}/polish`);
        expect(replayed.headers['idempotent-replayed']).toBe('true');
        expect(runs.count).toBe(before + 1);
      });

      it('a 500 after the effect committed (a dropped connection): the retry answers with what committed, no duplicate', async () => {
        const key = randomUUID();
        script.failAfterCommit = true;
        expect((await post({ name: 'committed then 500' }, key, adaToken)).statusCode).toBe(500);
        const retried = await post({ name: 'committed then 500' }, key, adaToken);
        expect(retried.statusCode).toBe(201);
        expect(retried.json().name).toBe('committed then 500');
        expect(await widgets('committed then 500')).toBe(1);
      });

      it('a crash between the commit and storing the response: 409 while the claim is leased, then the retry runs and does not duplicate', async () => {
        const key = randomUUID();
        // The process "dies" after its commit: it never answers and never stores a response.
        let revive!: () => void;
        script.holdAfterCommit = new Promise((resolve) => (revive = resolve));
        const committed = new Promise<void>((resolve) => (script.committed = resolve));
        const lost = post({ name: 'crashed' }, key, adaToken);
        await committed;
        expect((await post({ name: 'crashed' }, key, adaToken)).statusCode).toBe(409);
        offsetMs = LEASE_MS + 1;
        const retried = await post({ name: 'crashed' }, key, adaToken);
        expect(retried.statusCode).toBe(201);
        expect(retried.headers['idempotent-replayed']).toBeUndefined();
        expect(await widgets('crashed')).toBe(1);
        const replayed = await post({ name: 'crashed' }, key, adaToken);
        expect(replayed.headers['idempotent-replayed']).toBe('true');
        expect(replayed.json()).toEqual(retried.json());
        // Had the old process come back, its late response must not overwrite the claim it lost.
        revive();
        await lost;
        const still = await post({ name: 'crashed' }, key, adaToken);
        expect(still.headers['idempotent-replayed']).toBe('true');
        expect(still.json()).toEqual(retried.json());
        expect(await widgets('crashed')).toBe(1);
      });

      it('keeps a key for 24 hours, then lets it go (and purges expired keys)', async () => {
        const key = randomUUID();
        expect((await post({ name: 'kept a day' }, key, adaToken)).statusCode).toBe(201);
        offsetMs = DAY_MS - 60_000;
        const dayLater = await post({ name: 'kept a day' }, key, adaToken);
        expect(dayLater.headers['idempotent-replayed']).toBe('true');
        expect((await post({ name: 'another body' }, key, adaToken)).statusCode).toBe(422);
        offsetMs = DAY_MS + 60_000;
        // Expired: the key is free again, for any request.
        const reused = await post({ name: 'after expiry' }, key, adaToken);
        expect(reused.statusCode).toBe(201);
        expect(reused.headers['idempotent-replayed']).toBeUndefined();
        // An untouched old key is purged by the next claim once 10 minutes have passed since the last purge.
        const forgotten = randomUUID();
        offsetMs = 0;
        await database.db
          .insertInto('idempotency_keys')
          .values({
            caller: 'guest',
            key: forgotten,
            fingerprint: 'x',
            state: 'completed',
            claim_id: randomUUID(),
            locked_until: new Date(),
            expires_at: new Date(Date.now() + DAY_MS),
            created_at: new Date(),
            response_status: 201,
          })
          .execute();
        offsetMs = 3 * DAY_MS;
        expect((await post({ name: 'purge trigger' }, randomUUID(), adaToken)).statusCode).toBe(201);
        await expect
          .poll(
            async () =>
              (
                await database.db
                  .selectFrom('idempotency_keys')
                  .select('key')
                  .where('key', '=', forgotten)
                  .execute()
              ).length,
          )
          .toBe(0);
      });

      it('refuses a malformed key with 400 and accepts the structured-field form "…" as the same key', async () => {
        for (const key of ['', ' ', 'a'.repeat(256), 'spaced key', 'clé']) {
          const res = await post({ name: 'bad key' }, key, adaToken);
          expect(res.statusCode).toBe(400);
          expect(res.json().message).toBe(IDEMPOTENCY_MESSAGES.invalidKey);
        }
        expect(await widgets('bad key')).toBe(0);
        const longest = 'k'.repeat(255);
        expect((await post({ name: 'quoted' }, longest, adaToken)).statusCode).toBe(201);
        const quoted = await post({ name: 'quoted' }, `"${longest}"`, adaToken);
        expect(quoted.headers['idempotent-replayed']).toBe('true');
      });

      it('leaves requests without a key, and routes that did not opt in, as they were', async () => {
        expect((await post({ name: 'no key' })).statusCode).toBe(201);
        expect((await post({ name: 'no key' })).statusCode).toBe(201);
        expect(await widgets('no key')).toBe(2);
        const key = randomUUID();
        const a = await post({}, key, adaToken, '/plain');
        const b = await post({}, key, adaToken, '/plain');
        expect(b.json().n).toBe(a.json().n + 1);
        expect(b.headers['idempotent-replayed']).toBeUndefined();
      });
    },
  );
}
