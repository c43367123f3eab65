import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, createLogger, InProcessEventBus, type Database, type RunningService } from '@ques/kit';
import { createTestDatabase, infraGate, postgresServerUrl, type TestDatabase } from '@ques/kit/testing';
import { runIdentityCli } from './admin.js';
import type { IdentityDB } from './db/schema.js';
import type { IdentityParts } from './service.js';
import { runTestIdentity } from './test/identity.js';

const log = createLogger('operators-test', 'silent');
const run = infraGate(!!(await postgresServerUrl()), 'Postgres');
const PASSWORD = 'a long enough password';

/** The claims of an access token (what every service's requireOperator reads, once verified). */
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe.runIf(run)('platform operators (issue 18) on real Postgres: granted only server-side, in the token, audited', () => {
  let testDb: TestDatabase;
  let database: Database<IdentityDB>;
  let identity: RunningService<IdentityDB, any, IdentityParts>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    env = { DATABASE_URL: testDb.url, LOG_LEVEL: 'silent' };
    database = connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity' });
    identity = await runTestIdentity(database, new InProcessEventBus({ log }), log, {}, { OPERATOR_EMAILS: 'boss@example.com, Chief@Example.com' });
  });
  afterAll(async () => {
    await identity?.stop();
    await database?.close();
    await testDb?.drop();
  });

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token?: string) =>
    identity.app.inject({ method, url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const signup = async (name: string, email: string) => {
    const res = await inject('POST', '/api/users', { name, email, password: PASSWORD });
    expect(res.statusCode).toBe(201);
    return res.json<{ user: { id: string; username: string }; accessToken: string }>();
  };
  const login = async (email: string) => {
    const res = await inject('POST', '/api/users/login', { email, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    return res.json().accessToken as string;
  };
  const audit = (token?: string) => inject('GET', '/api/ops/audit/identity', undefined, token);

  it('the CLI grants the role; the next token carries it and opens operator routes, audited with who and when', async () => {
    const ada = await signup('Ada Operator', 'ada@example.com');
    expect(claimsOf(ada.accessToken).op).toBeUndefined();
    expect((await audit(ada.accessToken)).statusCode).toBe(404);

    expect(await runIdentityCli(['grant-operator', '--email', 'ada@example.com', '--operator', 'root'], env)).toBe(0);
    // Idempotent: granting again changes nothing and records nothing.
    expect(await runIdentityCli(['grant-operator', '--username', ada.user.username], env)).toBe(0);
    const token = await login('ada@example.com');
    expect(claimsOf(token).op).toBe(true);
    const res = await audit(token);
    expect(res.statusCode).toBe(200);
    const grants = res.json().entries.filter((e: { action: string }) => e.action === 'operator.grant');
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ service: 'identity', operatorUsername: 'cli:root', subject: `user:${ada.user.id}`, summary: `Made @${ada.user.username} an operator` });
    expect(Date.now() - Date.parse(grants[0].at)).toBeLessThan(60_000);
    // The grant is an event on the user's stream, and the audit record one of its own.
    const events = await database.db.selectFrom('events').select(['type', 'stream_id']).where('type', 'in', ['OperatorGranted', 'OperatorActed']).execute();
    expect(events.map((e) => e.type).sort()).toEqual(['OperatorActed', 'OperatorGranted']);
    // …never published to other services.
    expect(await database.db.selectFrom('outbox').select('subject').where('subject', 'like', '%Operator%').execute()).toEqual([]);
  });

  it('a non-operator and a guest get 404 from operator routes; the profile form cannot grant the role', async () => {
    const bob = await signup('Bob Owner', 'bob@example.com');
    expect((await audit()).statusCode).toBe(404);
    expect((await audit(bob.accessToken)).statusCode).toBe(404);
    const put = await inject('PUT', '/api/users/profile', { name: 'Bob Owner', operator: true, op: true, isOperator: true }, bob.accessToken);
    expect(put.statusCode).toBe(200);
    expect(put.json()).not.toHaveProperty('operator');
    const again = await login('bob@example.com');
    expect(claimsOf(again).op).toBeUndefined();
    expect((await audit(again)).statusCode).toBe(404);
    const row = await database.db.selectFrom('users').select('operator').where('id', '=', bob.user.id).executeTakeFirstOrThrow();
    expect(row.operator).toBe(false);
  });

  it('issue 28: a role granted while signed in takes effect at the next request, without signing out', async () => {
    const res = await inject('POST', '/api/users', { name: 'Gil Granted', email: 'gil@example.com', password: PASSWORD });
    const { accessToken, refreshToken } = res.json<{ accessToken: string; refreshToken: string }>();
    expect((await inject('GET', '/api/users/profile', undefined, accessToken)).statusCode).toBe(200);
    expect(await runIdentityCli(['grant-operator', '--email', 'gil@example.com'], env)).toBe(0);
    // The next request (the web app reads the profile on every start) refuses the token that misses the role…
    const next = await inject('GET', '/api/users/profile', undefined, accessToken);
    expect(next.statusCode).toBe(401);
    expect(next.json().message).toBe('Not authorized, token failed');
    // …so the app refreshes, as on any 401, in the same session: the new token opens the operator routes.
    const refreshed = await inject('POST', '/api/users/refresh-token', { refreshToken });
    expect(refreshed.statusCode).toBe(200);
    const fresh = refreshed.json().accessToken as string;
    expect(claimsOf(fresh).op).toBe(true);
    expect(claimsOf(fresh).sid).toBe(claimsOf(accessToken).sid);
    expect((await inject('GET', '/api/users/profile', undefined, fresh)).statusCode).toBe(200);
    expect((await audit(fresh)).statusCode).toBe(200);
  });

  it('revoking ends every session of the account at once', async () => {
    const token = await login('ada@example.com');
    expect((await audit(token)).statusCode).toBe(200);
    expect(await runIdentityCli(['revoke-operator', '--email', 'ada@example.com'], env)).toBe(0);
    expect((await audit(token)).statusCode).toBe(401);
    expect(claimsOf(await login('ada@example.com')).op).toBeUndefined();
    expect(await runIdentityCli(['grant-operator', '--email', 'nobody@example.com'], env)).toBe(1);
  });

  it('OPERATOR_EMAILS makes a listed address an operator only once it is verified', async () => {
    const boss = await signup('The Boss', 'boss@example.com');
    expect(claimsOf(boss.accessToken).op).toBeUndefined();
    expect(claimsOf(await login('boss@example.com')).op).toBeUndefined();
    await identity.parts.commands.handle(boss.user.id, { type: 'VerifyEmail', data: { email: 'boss@example.com', now: new Date() } }, { correlationId: 'test', causationId: null, actor: null });
    const token = await login('boss@example.com');
    expect(claimsOf(token).op).toBe(true);
    const entries = (await audit(token)).json().entries as { action: string; operatorUsername: string; subject: string }[];
    expect(entries.find((e) => e.subject === `user:${boss.user.id}`)).toMatchObject({ action: 'operator.grant', operatorUsername: 'OPERATOR_EMAILS' });
  });

  it('an operator creates, edits, unmarks and marks an archive profile; each action audited; nobody else can', async () => {
    const curator = await signup('Cora Curator', 'cora@example.com');
    expect(await runIdentityCli(['grant-operator', '--email', 'cora@example.com'], env)).toBe(0);
    const op = await login('cora@example.com');
    const created = await inject('POST', '/api/ops/archives', { name: 'Hedy Lamarr', bio: 'Actress and inventor', sources: 'Interviews, 1940–1990' }, op);
    expect(created.statusCode, created.body).toBe(201);
    const archive = created.json();
    expect(archive).toMatchObject({ username: 'hedy-lamarr', name: 'Hedy Lamarr', bio: 'Actress and inventor', sources: 'Interviews, 1940–1990', archiveProfile: true });
    expect((await inject('GET', '/api/users/public/hedy-lamarr')).json()).toMatchObject({ archiveProfile: true, bio: 'Actress and inventor' });
    expect((await inject('POST', '/api/ops/archives', { name: 'Hedy Lamarr' }, op)).statusCode).toBe(409);

    const edited = await inject('PUT', `/api/ops/archives/${archive.id}`, { bio: 'Inventor of frequency hopping', sources: 'Patent 2,292,387' }, op);
    expect(edited.json()).toMatchObject({ bio: 'Inventor of frequency hopping', sources: 'Patent 2,292,387' });
    expect((await inject('POST', `/api/ops/archives/${archive.id}/mark`, { archive: false }, op)).json().archiveProfile).toBe(false);
    expect((await inject('GET', '/api/users/public/hedy-lamarr')).json().archiveProfile).toBe(false);
    expect((await inject('POST', `/api/ops/archives/${archive.id}/mark`, { archive: true }, op)).json().archiveProfile).toBe(true);
    const list = (await inject('GET', '/api/ops/archives', undefined, op)).json().archives;
    expect(list.map((a: { username: string }) => a.username)).toContain('hedy-lamarr');

    const actions = ((await audit(op)).json().entries as { action: string; subject: string; operatorId: string }[]).filter((e) => e.subject === `user:${archive.id}`);
    expect(actions.map((e) => e.action)).toEqual(['archive.mark', 'archive.unmark', 'archive.edit', 'archive.create']);
    expect(actions.every((e) => e.operatorId === curator.user.id)).toBe(true);

    // Nobody else: an owner and a guest get the 404 of a path that does not exist, and nothing changes.
    const owner = await login('bob@example.com');
    for (const token of [owner, undefined]) {
      expect((await inject('POST', '/api/ops/archives', { name: 'Sneaky' }, token)).statusCode).toBe(404);
      expect((await inject('PUT', `/api/ops/archives/${archive.id}`, { bio: 'hacked' }, token)).statusCode).toBe(404);
      expect((await inject('POST', `/api/ops/archives/${archive.id}/mark`, { archive: false }, token)).statusCode).toBe(404);
    }
    expect((await inject('GET', '/api/users/public/hedy-lamarr')).json()).toMatchObject({ archiveProfile: true, bio: 'Inventor of frequency hopping' });
  });
});
