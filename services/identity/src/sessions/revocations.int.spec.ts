import { createHash } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityEvents } from '@ques/contracts';
import {
  connectPostgres,
  InProcessEventBus,
  type Database,
  type RunningService,
} from '@ques/kit';
import {
  createTestDatabase,
  eventually,
  infraGate,
  postgresServerUrl,
  type TestDatabase,
} from '@ques/kit/testing';
import type { IdentityDB } from '../db/schema.js';
import { runTestIdentity } from '../test/identity.js';

const log = pino({ level: 'silent' });
const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

interface Announced {
  userId: string;
  sessionIds: string[];
  reason: string;
  correlationId: string;
}

const sidOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;

describe.runIf(run)(
  'identity announces every ended session (SessionsRevoked), with the revocation, through its outbox',
  () => {
    let testDb: TestDatabase;
    let database: Database<IdentityDB>;
    let bus: InProcessEventBus;
    let identity: RunningService<IdentityDB>;
    const announced: Announced[] = [];

    beforeAll(async () => {
      testDb = await createTestDatabase();
      database = connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity' });
      bus = new InProcessEventBus({ log });
      await bus.subscribe({
        durable: 'test--sessions-revoked',
        context: 'identity',
        subjects: ['ques.identity.SessionsRevoked'],
        handler: async (envelope) => {
          const data = IdentityEvents.SessionsRevoked.schema.parse(envelope.data);
          expect(envelope.streamId).toBe(`sessions-${data.userId}`);
          announced.push({
            userId: data.userId,
            sessionIds: data.sessionIds,
            reason: data.reason,
            correlationId: envelope.correlationId,
          });
        },
        onPoison: async () => {},
      });
      identity = await runTestIdentity(database, bus, log);
    });
    afterAll(async () => {
      await identity?.stop();
      await bus?.close();
      await database?.close();
      await testDb?.drop();
    });

    const post = (
      url: string,
      payload: unknown,
      token?: string,
      method: 'POST' | 'PUT' | 'DELETE' = 'POST',
    ) =>
      identity.app.inject({
        method,
        url,
        payload: payload as Record<string, unknown>,
        headers: {
          'x-correlation-id': `corr-${url.replace(/\W/g, '')}`,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      });
    const login = async (email: string, password: string) => {
      const res = await post('/api/users/login', { email, password });
      expect(res.statusCode).toBe(200);
      return { access: res.json().accessToken as string, refresh: res.json().refreshToken as string };
    };
    /** Waits for the next announcement (the relay publishes after the commit) and checks that no other came with it. */
    const next = async (): Promise<Announced> => {
      const seen = announced.length;
      await eventually(async () => announced.length > seen, 5_000);
      await new Promise((r) => setTimeout(r, 150));
      expect(announced).toHaveLength(seen + 1);
      return announced.at(-1)!;
    };

    it('logout, refresh-token reuse, password change (all but this session), reset and deletion each name exactly the sessions they end', async () => {
      const email = 'revoked.sessions@example.com';
      let password = 'a long enough password';
      const signup = await post('/api/users', { name: 'Rita Revoked', email, password });
      expect(signup.statusCode).toBe(201);
      const userId = signup.json().user.id as string;
      const first = { access: signup.json().token as string, refresh: signup.json().refreshToken as string };

      // Logout: the one session, announced once although both its token and its refresh token name it.
      const laptop = await login(email, password);
      let pending = next();
      expect(
        (await post('/api/users/logout', { refreshToken: laptop.refresh }, laptop.access)).statusCode,
      ).toBe(200);
      expect(await pending).toEqual({
        userId,
        sessionIds: [sidOf(laptop.access)],
        reason: 'logout',
        correlationId: 'corr-apiuserslogout',
      });

      // A spent refresh token presented again: its whole session ends.
      const phone = await login(email, password);
      const rotated = await post('/api/users/refresh-token', { refreshToken: phone.refresh });
      expect(rotated.statusCode).toBe(200);
      pending = next();
      expect((await post('/api/users/refresh-token', { refreshToken: phone.refresh })).statusCode).toBe(401);
      expect(await pending).toMatchObject({
        userId,
        sessionIds: [sidOf(phone.access)],
        reason: 'refresh token reused',
      });

      // Password change: every other live session, not the one that changed it.
      const tablet = await login(email, password);
      const desk = await login(email, password);
      pending = next();
      const previous = password;
      password = 'a brand new passphrase';
      expect(
        (await post('/api/users/profile', { newPassword: password, currentPassword: previous }, desk.access, 'PUT')).statusCode,
      ).toBe(200);
      const changed = await pending;
      expect(changed.reason).toBe('password changed');
      expect(new Set(changed.sessionIds)).toEqual(new Set([sidOf(first.access), sidOf(tablet.access)]));

      // Reset: every live session (here: the one that changed the password).
      const token = 'reset-token-for-the-test';
      await database.db
        .insertInto('password_resets')
        .values({
          token_hash: createHash('sha256').update(token).digest('hex'),
          user_id: userId,
          created_at: new Date(),
          expires_at: new Date(Date.now() + 60_000),
        })
        .execute();
      pending = next();
      password = 'yet another passphrase';
      expect((await post('/api/users/reset-password-confirm', { token, password })).statusCode).toBe(200);
      expect(await pending).toMatchObject({
        userId,
        sessionIds: [sidOf(desk.access)],
        reason: 'password reset',
      });

      // Deletion: every live session.
      const last = await login(email, password);
      const spare = await login(email, password);
      pending = next();
      expect((await post(`/api/users/profile/${userId}`, undefined, last.access, 'DELETE')).statusCode).toBe(
        200,
      );
      const deleted = await pending;
      expect(deleted.reason).toBe('account deleted');
      expect(new Set(deleted.sessionIds)).toEqual(new Set([sidOf(last.access), sidOf(spare.access)]));

      // Ending what already ended announces nothing.
      expect(
        (await post('/api/users/logout', { refreshToken: laptop.refresh }, laptop.access)).statusCode,
      ).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(announced).toHaveLength(5);
    });
  },
);
