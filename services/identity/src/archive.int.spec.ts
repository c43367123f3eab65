import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, createLogger, InProcessEventBus, type Database, type RunningService } from '@ques/kit';
import { createTestDatabase, infraGate, postgresServerUrl, type TestDatabase } from '@ques/kit/testing';
import { runIdentityCli } from './admin.js';
import type { IdentityDB } from './db/schema.js';
import { runTestIdentity } from './test/identity.js';

const log = createLogger('archive-test', 'silent');
const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

describe.runIf(run)('archive profiles from the admin CLI, on real Postgres', () => {
  let testDb: TestDatabase;
  let database: Database<IdentityDB>;
  let identity: RunningService<IdentityDB>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    env = { DATABASE_URL: testDb.url, LOG_LEVEL: 'silent' };
    database = connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity' });
    identity = await runTestIdentity(database, new InProcessEventBus({ log }), log);
  });
  afterAll(async () => {
    await identity?.stop();
    await database?.close();
    await testDb?.drop();
  });

  const publicProfile = async (username: string) => (await identity.app.inject({ method: 'GET', url: `/api/users/public/${username}` })).json();

  it('creates an archive profile with its bio and avatar, shown publicly as an archive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'archive-'));
    const avatar = join(dir, 'portrait.png');
    writeFileSync(avatar, await sharp({ create: { width: 300, height: 300, channels: 3, background: '#8e44ad' } }).png().toBuffer());
    const code = await runIdentityCli(
      ['create-archive', '--name', 'Ada Lovelace Archive', '--email', 'curator@example.com', '--bio', 'Letters and notes of Ada Lovelace', '--avatar', avatar],
      env,
    );
    expect(code).toBe(0);
    const profile = await publicProfile('ada-lovelace-archive');
    expect(profile).toMatchObject({ name: 'Ada Lovelace Archive', bio: 'Letters and notes of Ada Lovelace', archiveProfile: true });
    expect(profile.avatarUrl).toMatch(/^\/images\/avatars\/.+\.webp$/);
    expect((await identity.app.inject({ method: 'GET', url: profile.avatarUrl })).statusCode).toBe(200);
    // The curator signs in with the e-mail (after a password reset): the account is real.
    expect((await runIdentityCli(['create-archive', '--name', 'Ada Lovelace Archive', '--email', 'other@example.com'], env))).toBe(1);
  });

  it('marks and unmarks an existing profile', async () => {
    const signup = await identity.app.inject({ method: 'POST', url: '/api/users', payload: { name: 'Grace Hopper', email: 'grace@example.com', password: 'a long enough password' } });
    expect(signup.statusCode).toBe(201);
    expect((await publicProfile('grace-hopper')).archiveProfile).toBe(false);
    expect(await runIdentityCli(['mark-archive', '--username', 'grace-hopper'], env)).toBe(0);
    expect((await publicProfile('grace-hopper')).archiveProfile).toBe(true);
    expect(await runIdentityCli(['mark-archive', '--username', 'grace-hopper', '--unmark'], env)).toBe(0);
    expect((await publicProfile('grace-hopper')).archiveProfile).toBe(false);
    expect(await runIdentityCli(['mark-archive', '--username', 'nobody-at-all'], env)).toBe(1);
  });
});
