import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { kitMailQuotaMigration } from '../db/migrations/index.js';
import type { MailQuotaTables } from '../db/schema.js';
import { createTestDatabase, infraGate, postgresServerUrl, type TestDatabase } from '../testing/infra.js';
import { mailBucket, takeMailQuota, type MailCap } from './mail-quota.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

describe.runIf(run)('mail caps: a day counter per bucket in Postgres (issue 33, ADR 0060)', () => {
  let testDb: TestDatabase;
  // Two pools on one database: two instances of a service.
  let one: Database<MailQuotaTables>;
  let two: Database<MailQuotaTables>;
  const now = new Date('2026-11-29T10:00:00Z');

  beforeAll(async () => {
    testDb = await createTestDatabase();
    one = connectPostgres<MailQuotaTables>({ connectionString: testDb.url, schema: 'mailer' });
    two = connectPostgres<MailQuotaTables>({ connectionString: testDb.url, schema: 'mailer' });
    await migrate(one, { '2026_11_29_0003_kit_mail_quota': kitMailQuotaMigration });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await testDb?.drop();
  });

  it('counts variants of one address as one bucket and refuses the limit + 1-th of a UTC day', async () => {
    const cap = (raw: string): MailCap => ({ kind: 'test', bucket: mailBucket.address(raw), limit: 3 });
    const answers = [];
    for (const raw of ['victim@gmail.com', 'Victim+a@gmail.com', 'v.i.c.t.i.m@GoogleMail.com', 'VICTIM+b@Gmail.Com']) {
      answers.push(await takeMailQuota(one.db, [cap(raw)], now));
    }
    expect(answers.map((a) => a?.limit ?? null)).toEqual([null, null, null, 3]);
    // Another address, another kind and the next day count on their own.
    expect(await takeMailQuota(one.db, [cap('someone.else@gmail.com')], now)).toBeNull();
    expect(await takeMailQuota(one.db, [{ ...cap('victim@gmail.com'), kind: 'other' }], now)).toBeNull();
    expect(await takeMailQuota(one.db, [cap('victim@gmail.com')], new Date('2026-11-30T00:00:01Z'))).toBeNull();
  });

  it('answers the cap that is full when a mail counts in two buckets, and drops counters older than yesterday', async () => {
    const account: MailCap = { kind: 'two', bucket: mailBucket.account('acc-1'), limit: 2 };
    const address = (n: number): MailCap => ({ kind: 'two', bucket: mailBucket.address(`a${n}@example.com`), limit: 5 });
    expect(await takeMailQuota(one.db, [address(1), account], now)).toBeNull();
    expect(await takeMailQuota(one.db, [address(2), account], now)).toBeNull();
    expect(await takeMailQuota(one.db, [address(3), account], now)).toEqual(account);
    const later = new Date(now.getTime() + 3 * 86_400_000);
    await takeMailQuota(one.db, [address(4)], later);
    const days = await one.db.selectFrom('mail_quota').select('day').distinct().execute();
    expect(days).toHaveLength(1);
  });

  it('never lets two instances both take the last mail: 40 concurrent takes, limit 5, five go', async () => {
    const cap: MailCap = { kind: 'race', bucket: mailBucket.address('race@example.com'), limit: 5 };
    const takes = Array.from({ length: 40 }, (_, i) =>
      (i % 2 ? one : two).db.transaction().execute((trx) => takeMailQuota(trx, [cap], now)),
    );
    const answers = await Promise.all(takes);
    expect(answers.filter((a) => a === null)).toHaveLength(5);
    const row = await one.db.selectFrom('mail_quota').select('taken').where('kind', '=', 'race').executeTakeFirstOrThrow();
    // Every refused take is on the counter too: 35 skipped.
    expect(row.taken).toBe(40);
  });
});
