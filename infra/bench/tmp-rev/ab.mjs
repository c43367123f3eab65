// Throwaway A/B (not committed): GET /api/questions (the caller's own list) on the real questions service, with the
// kit's revocation check on and off, interleaved in one process so both see the same machine load.
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { connectPostgres, createLogger, generateJwtKeys, InProcessEventBus } from '@ques/kit';
import { createTestDatabase, createTestTokenSigner } from '@ques/kit/testing';
import { startQuestionsService } from '@ques/questions';
const log = createLogger('bench', 'silent');
const testDb = await createTestDatabase();
const database = connectPostgres({ connectionString: testDb.url, schema: 'questions' });
const keys = generateJwtKeys();
const bus = new InProcessEventBus({ log });
const q = await startQuestionsService({ database, bus, log, jwt: { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' }, mailer: null, publicOrigin: 'http://x' });
const url = await q.listen(0);
// 2,000 revoked sessions in the table, as after a busy day.
await database.db.insertInto('revoked_sessions').values(Array.from({ length: 2000 }, () => ({ session_id: randomUUID(), user_id: randomUUID(), reason: 'logout', revoked_at: new Date() }))).execute();
const signer = await createTestTokenSigner(keys);
const token = signer.sign({ id: randomUUID(), username: 'ada' });
const memory = q.app.revocations;
await memory.refresh();
const lookup = { isRevoked: async (sid) => !!(await database.db.selectFrom('revoked_sessions').select('session_id').where('session_id', '=', sid).executeTakeFirst()) };
const checks = { off: null, memory, lookup };
const opts = { url: `${url}/api/questions`, connections: 10, headers: { authorization: `Bearer ${token}` } };
await autocannon({ ...opts, duration: 3 });
const results = { off: [], memory: [], lookup: [] };
for (let round = 0; round < Number(process.env.ROUNDS ?? 6); round += 1) {
  const order = [['off', 'memory', 'lookup'], ['lookup', 'off', 'memory'], ['memory', 'lookup', 'off']][round % 3];
  for (const mode of order) {
    q.app.revocations = checks[mode];
    const r = await autocannon({ ...opts, duration: Number(process.env.D ?? 4) });
    if (r.non2xx) throw new Error(`non-2xx ${r.non2xx}`);
    results[mode].push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log('revoked in memory', memory.size);
for (const mode of ['off', 'memory', 'lookup']) {
  const rs = results[mode];
  console.log(mode, 'rps median', median(rs.map((r) => r.rps)), 'p50', median(rs.map((r) => r.p50)), 'p99', median(rs.map((r) => r.p99)), JSON.stringify(rs.map((r) => r.rps)));
}
await q.stop(); await signer.close(); await bus.close(); await database.close(); await testDb.drop();
