// Throwaway: latency of one revocation lookup (PK, 2,000 rows) on an idle pool, sequential, vs SELECT 1.
import { randomUUID } from 'node:crypto';
import { connectPostgres, migrate, kitRevocationsMigration, revocationReadModel } from '@ques/kit';
import { createTestDatabase } from '@ques/kit/testing';
import { sql } from 'kysely';
const testDb = await createTestDatabase();
const database = connectPostgres({ connectionString: testDb.url, schema: 'questions' });
await migrate(database, { a: kitRevocationsMigration });
await database.db.insertInto('revoked_sessions').values(Array.from({ length: 2000 }, () => ({ session_id: randomUUID(), user_id: randomUUID(), reason: 'logout', revoked_at: new Date() }))).execute();
const check = revocationReadModel(database.db);
const time = async (fn) => { for (let i = 0; i < 500; i++) await fn(); const t = process.hrtime.bigint(); for (let i = 0; i < 5000; i++) await fn(); return Number(process.hrtime.bigint() - t) / 5000 / 1000; };
for (let r = 0; r < 3; r++) {
  const lookup = await time(() => check.isRevoked(randomUUID()));
  const select1 = await time(() => sql`SELECT 1`.execute(database.db));
  console.log('lookup µs', lookup.toFixed(0), 'SELECT 1 µs', select1.toFixed(0));
}
await database.close(); await testDb.drop();
