/**
 * The servers the benchmarks compare, started in this child process (the load generator runs in the parent, so the
 * two never share an event loop): the bare node:http hello world, identity and the cached questions service here; the
 * uncached questions service (the list rows' target), the bare Fastify + raw pg route and the BFFs each in a process
 * of its own (ADR 0038, 0047). Prints one JSON line with their URLs, then serves until killed.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';
import { identityService, loadIdentityConfig, type IdentityDB } from '@ques/identity';
import { loadQuestionsConfig, questionsService, type QuestionsDB } from '@ques/questions';
import { connectPostgres, createLogger, generateJwtKeys, InProcessEventBus, runService } from '@ques/kit';
import { createTestDatabase } from '@ques/kit/testing';
import { startServerProcess } from './server-process.js';

export const OWNER = 'bench-owner';
/** Page size of the public list (the route's default). */
const PAGE = 20;

const log = createLogger('bench', 'silent');
const listen = async (server: ReturnType<typeof createServer>) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));

const testDb = await createTestDatabase();
const jwt = { ...generateJwtKeys(), issuer: 'ques-identity', audience: 'ques' };
const bus = new InProcessEventBus({ log });
// Required in every run mode (ADR 0060); nothing here makes an internal call.
const internalToken = randomBytes(24).toString('hex');

// 1. Bare node:http hello world: the floor for /health.
const bareHttp = await listen(createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')));

// 2. A service with the full plugin stack (identity: JWT, multipart, error handler, request ids, logging).
const identity = await runService(identityService, {
  config: loadIdentityConfig({ JWT_PUBLIC_KEY: jwt.publicKey, JWT_PRIVATE_KEY: jwt.privateKey, INTERNAL_API_TOKEN: internalToken }),
  database: connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity' }),
  bus,
  log,
  mailer: null,
  port: 0,
});
const identityUrl = identity.url;
// The owner whose public page the read-route and crawler benchmarks load.
const owner = await identity.app.inject({ method: 'POST', url: '/api/users', payload: { name: 'Bench Owner', email: 'bench.owner@example.com', password: 'a long enough password' } });
if (owner.statusCode !== 201) throw new Error(`could not create the bench owner: ${owner.body}`);

// 3. The questions service on a seeded read model: 2,000 public answers for the owner among 20,000 questions.
// This instance (with its read cache, as deployed: ADR 0040) runs the schema's migrations and sees identity's events
// on the shared bus; the rows comparing the stack with a bare route load another instance in a process of its own
// (below), without the cache.
const cachedQuestionsDb = connectPostgres<QuestionsDB>({ connectionString: testDb.url, schema: 'questions' });
const cachedQuestions = await runService(questionsService, {
  config: loadQuestionsConfig({ JWT_PUBLIC_KEY: jwt.publicKey, INTERNAL_API_TOKEN: internalToken }),
  database: cachedQuestionsDb,
  bus,
  log,
  mailer: null,
  port: 0,
});
const seed = new pg.Client({ connectionString: testDb.url });
await seed.connect();
await seed.query(`
  INSERT INTO questions.questions (id, lifecycle, question, detail, answer, tags, to_user_id, to_username, recipient_name, to_user_email,
                                   from_username, asked_name, created_at, updated_at, answered_at, version)
  SELECT gen_random_uuid(), 'answered', 'Question number ' || n || ' about pricing and delivery?', 'Some detail', 'An answer of a useful length, ' || n,
         '["pricing","delivery"]'::jsonb, gen_random_uuid(), CASE WHEN n % 10 = 0 THEN '${OWNER}' ELSE 'someone-' || (n % 97) END,
         'Bench Owner', 'owner@example.com', 'guest', 'Gus', now() - n * interval '1 minute', now(), now(), 2
  FROM generate_series(1, 20000) AS n`);
await seed.query('ANALYZE questions.questions');

// The questions service without its read cache (the rows comparing the stack with a bare route must do the same
// work as it), in a process of its own as deployed (src/questions-target.ts, ADR 0047): the "Questions public list"
// row loads it directly, the BFF row through the BFF's process, and neither shares an event loop with identity or
// the cached instance.
const questionsProcess = await startServerProcess('./questions-target.js', { databaseUrl: testDb.url, jwtPublicKey: jwt.publicKey });
const { questionsUrl } = questionsProcess.urls;

// 4. The baseline for the read route: bare Fastify + raw pg, the same SQL as the service's public list, in a process
// of its own (src/bare-route-target.ts) like the service it is compared with.
const bareRoute = await startServerProcess('./bare-route-target.js', { databaseUrl: testDb.url, page: PAGE });
const { bareFastify } = bareRoute.urls;

// 5. The BFF in front of the services (one hop), in a process of its own as deployed (src/bff-target.ts): a public
// list costs it a real exchange with the questions service's process, not a call within one event loop.
const bff = await startServerProcess('./bff-target.js', { identityUrl, questionsUrl, jwt: { publicKey: jwt.publicKey, issuer: jwt.issuer, audience: jwt.audience } });
const { bffUrl, uncachedBffUrl } = bff.urls;
// A BFF in front of the cached questions service (its page cache plays no part in the list rows).
const cachedBff = await startServerProcess('./bff-target.js', { identityUrl, questionsUrl: cachedQuestions.url, jwt: { publicKey: jwt.publicKey, issuer: jwt.issuer, audience: jwt.audience } });
const cachedListBffUrl = cachedBff.urls.bffUrl;

process.stdout.write(`${JSON.stringify({ bareHttp, identityUrl, questionsUrl, bareFastify, bffUrl, uncachedBffUrl, cachedListBffUrl, owner: OWNER, page: PAGE })}\n`);

const shutdown = async () => {
  await cachedBff.stop();
  await bff.stop();
  await bareRoute.stop();
  await questionsProcess.stop();
  await cachedQuestions.stop();
  await cachedQuestionsDb.close();
  await identity.stop();
  await seed.end();
  await testDb.drop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
