import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLE_MESSAGES as H, type UserSnapshot } from '@ques/contracts';
import { connectPostgres, createLogger, InProcessEventBus, rebuildProjections, type Database, type RunningService } from '@ques/kit';
import { createTestDatabase, eventually, infraGate, postgresServerUrl, type TestDatabase } from '@ques/kit/testing';
import type { IdentityDB } from './db/schema.js';
import { runTestIdentity } from './test/identity.js';

/*
 * Issue 28, the public handle on real Postgres: chosen at sign-up, renamed later; the old one is kept in
 * `handle_history`, redirects (the public profile answers under the new handle) and stays its owner's for 90 days;
 * the database decides a race.
 */

const log = createLogger('handles-test', 'silent');
const run = infraGate(!!(await postgresServerUrl()), 'Postgres');
const PASSWORD = 'a long enough password';
const DAY = 24 * 3600_000;

describe.runIf(run)('public handles on real Postgres (issue 28)', () => {
  let testDb: TestDatabase;
  let database: Database<IdentityDB>;
  let identity: RunningService<IdentityDB>;
  let now = new Date('2026-12-01T10:00:00Z');
  const published: UserSnapshot[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity', max: 6 });
    const bus = new InProcessEventBus({ log });
    await bus.subscribe({
      durable: 'test--handle-snapshots',
      context: 'identity',
      subjects: ['ques.identity.ProfileUpdated'],
      handler: async (envelope) => void published.push(envelope.data as UserSnapshot),
      onPoison: async () => {},
    });
    identity = await runTestIdentity(database, bus, log, { clock: () => now });
  });
  afterAll(async () => {
    await identity?.stop();
    await database?.close();
    await testDb?.drop();
  });

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token?: string) =>
    identity.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? { authorization: `Bearer ${token}` } : {} });
  const signup = async (name: string, username?: string) => {
    const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Math.random().toString(36).slice(2, 8)}@example.com`;
    return inject('POST', '/api/users', { name, email, password: PASSWORD, ...(username ? { username } : {}) });
  };
  const account = async (name: string, username?: string) => {
    const res = await signup(name, username);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ user: { id: string; username: string }; token: string }>();
  };
  const rename = (token: string, username: string) => inject('PUT', '/api/users/handle', { username }, token);
  const publicProfile = (handle: string) => inject('GET', `/api/users/public/${handle}`);
  const availability = async (handle: string, token?: string) =>
    (await inject('GET', `/api/handles/${encodeURIComponent(handle)}/availability`, undefined, token)).json<{ available: boolean; reason?: string }>();

  it('signs up with a chosen handle; a taken one is 409 with the message; without one it is derived', async () => {
    const mira = await account('Mira Castell', 'mira-asks');
    expect(mira.user.username).toBe('mira-asks');
    const taken = await signup('Someone Else', 'mira-asks');
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(H.taken);
    const reserved = await signup('Admin Person', 'admin');
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().message).toBe(H.reserved);
    // Older clients: the name's handle, then numbered.
    expect((await account('Mira Castell')).user.username).toBe('mira-castell');
    expect((await account('Mira Castell')).user.username).toBe('mira-castell-2');
    expect(await availability('mira-asks')).toEqual({ handle: 'mira-asks', available: false, reason: H.taken });
    expect(await availability('free-handle')).toEqual({ handle: 'free-handle', available: true });
    expect(await availability('ops')).toMatchObject({ available: false, reason: H.reserved });
  });

  it('renames: the old handle goes into the history, redirects, and nobody else may take it within 90 days', async () => {
    const ren = await account('Ren Okafor', 'ren-old');
    const renamed = await rename(ren.token, 'ren-new');
    expect(renamed.statusCode, renamed.body).toBe(200);
    const body = renamed.json<{ user: { username: string }; accessToken: string }>();
    expect(body.user.username).toBe('ren-new');
    // The new token names the new handle (the other services read it from the token).
    expect(JSON.parse(Buffer.from(body.accessToken.split('.')[1]!, 'base64url').toString()).username).toBe('ren-new');
    const history = await database.db.selectFrom('handle_history').selectAll().where('user_id', '=', ren.user.id).orderBy('handle').execute();
    expect(history.map((h) => [h.handle, h.released_at === null])).toEqual([['ren-new', true], ['ren-old', false]]);
    // The old handle answers with the profile under the new one (the pages redirect to it).
    expect((await publicProfile('ren-old')).json()).toMatchObject({ username: 'ren-new', id: ren.user.id });
    await eventually(async () => expect(published.some((s) => s.userId === ren.user.id && s.username === 'ren-new')).toBe(true));

    // Someone else: refused over sign-up and rename, and told so by the live check.
    const other = await account('Other Person', 'other-person');
    expect((await rename(other.token, 'ren-old')).json().message).toBe(H.taken);
    expect((await signup('Ren Copycat', 'ren-old')).statusCode).toBe(409);
    expect(await availability('ren-old', other.token)).toMatchObject({ available: false, reason: H.taken });
    // Its previous owner may take it back (told it is available).
    expect(await availability('ren-old', ren.token)).toMatchObject({ available: true });

    // After 90 days it is free for anyone.
    now = new Date(now.getTime() + 91 * DAY);
    try {
      const taken = await rename(other.token, 'ren-old');
      expect(taken.statusCode, taken.body).toBe(200);
      expect((await publicProfile('ren-old')).json()).toMatchObject({ id: other.user.id });
    } finally {
      now = new Date(now.getTime() - 91 * DAY);
    }
  });

  it('lets the previous owner take a released handle back; an unchanged one is refused', async () => {
    const kai = await account('Kai Back', 'kai-first');
    expect((await rename(kai.token, 'kai-second')).statusCode).toBe(200);
    const back = await rename(kai.token, 'kai-first');
    expect(back.statusCode, back.body).toBe(200);
    expect((await publicProfile('kai-second')).json()).toMatchObject({ username: 'kai-first' });
    const same = await rename(kai.token, 'kai-first');
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(H.unchanged);
  });

  it('renames twice in a row: both old handles redirect to the newest', async () => {
    const lee = await account('Lee Twice', 'lee-one');
    expect((await rename(lee.token, 'lee-two')).statusCode).toBe(200);
    expect((await rename(lee.token, 'lee-three')).statusCode).toBe(200);
    for (const old of ['lee-one', 'lee-two']) expect((await publicProfile(old)).json()).toMatchObject({ username: 'lee-three' });
    expect(await availability('lee-one')).toMatchObject({ available: false, reason: H.taken });
  });

  it('two people renaming to the same handle at once: exactly one wins, the other gets 409', async () => {
    const people = await Promise.all(['Race One', 'Race Two', 'Race Three'].map((name) => account(name)));
    const results = await Promise.all(people.map((p) => rename(p.token, 'race-winner')));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409]);
    for (const loser of results.filter((r) => r.statusCode === 409)) expect(loser.json().message).toBe(H.taken);
    const winner = people[results.findIndex((r) => r.statusCode === 200)]!;
    expect((await publicProfile('race-winner')).json()).toMatchObject({ id: winner.user.id });
    const held = await database.db.selectFrom('handle_history').selectAll().where('handle', '=', 'race-winner').execute();
    expect(held).toHaveLength(1);
  });

  it('refuses look-alikes, spaces and lengths with their messages over the API', async () => {
    const sam = await account('Sam Rules', 'sam-rules');
    for (const [bad, message] of [
      ['s\u0430m-rules', H.lookalike],
      ['sam rules', H.spaces],
      ['s', H.shape],
      ['s'.repeat(60), H.shape],
      ['api', H.reserved],
    ] as const) {
      const res = await rename(sam.token, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('rebuilds handle_history from the events to the same rows (the 90 days counted from the events’ times)', async () => {
    const gone = await account('Gone Soon', 'gone-soon');
    expect((await inject('DELETE', `/api/users/profile/${gone.user.id}`, undefined, gone.token)).statusCode).toBe(200);
    const rows = () => database.db.selectFrom('handle_history').selectAll().orderBy('handle').execute();
    const before = await rows();
    expect(before.some((r) => r.user_id === gone.user.id)).toBe(false);
    await database.db.deleteFrom('handle_history').execute();
    await rebuildProjections(identity.ctx.store, log);
    expect(await rows()).toEqual(before);
  });
});
