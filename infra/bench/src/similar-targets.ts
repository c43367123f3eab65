/**
 * The "already answered?" benchmark's server (issue 14), in a child process of its own: the questions service on a
 * read model of 20,000 answered questions, 2,000 of them public answers of one owner. Titles and answers are drawn
 * from a vocabulary of a few hundred words (as real questions are: many share words, few share a title), so both the
 * full-text search and the trigram fallback meet realistic selectivity. Prints one JSON line, then serves until killed.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadQuestionsConfig, questionsService, type QuestionsDB } from '@ques/questions';
import { connectPostgres, createLogger, generateJwtKeys, InProcessEventBus, runService } from '@ques/kit';
import { createTestDatabase } from '@ques/kit/testing';

const OWNER = 'similar-owner';
const log = createLogger('bench', 'silent');
const testDb = await createTestDatabase();
const jwt = generateJwtKeys();
const database = connectPostgres<QuestionsDB>({ connectionString: testDb.url, schema: 'questions' });
const questions = await runService(questionsService, {
  config: loadQuestionsConfig({ JWT_PUBLIC_KEY: jwt.publicKey, INTERNAL_API_TOKEN: randomBytes(24).toString('hex') }),
  database,
  bus: new InProcessEventBus({ log }),
  log,
  mailer: null,
  port: 0,
});

const seed = new pg.Client({ connectionString: testDb.url });
await seed.connect();
// A deterministic vocabulary: 400 made-up words of 4–9 letters, plus the words the benchmark types.
await seed.query(`
  CREATE TEMP TABLE vocab AS
  SELECT n, w FROM (
    SELECT n, string_agg(substr('bcdfghjklmnprstvwz', 1 + (n * 7 + k * 13) % 18, 1) || substr('aeiou', 1 + (n * 3 + k * 5) % 5, 1), '' ORDER BY k) AS w
    FROM generate_series(1, 400) AS n, generate_series(1, 2 + n % 4) AS k GROUP BY n
  ) v
  UNION ALL SELECT 400 + i, w FROM unnest(ARRAY['pricing', 'workshop', 'consulting', 'delivery', 'mentor', 'salary', 'portfolio', 'interview']) WITH ORDINALITY AS t(w, i)`);
await seed.query(`
  INSERT INTO questions.questions (id, lifecycle, question, detail, answer, tags, to_user_id, to_username, recipient_name, to_user_email,
                                   from_username, asked_name, created_at, updated_at, answered_at, version)
  SELECT gen_random_uuid(), 'answered',
         'How do I ' || (SELECT string_agg(w, ' ') FROM vocab WHERE n IN (1 + (q * 17) % 408, 1 + (q * 31) % 408, 1 + (q * 43) % 408, 1 + (q * 59) % 408)) || '?',
         '', 'Start with ' || (SELECT string_agg(w, ' ') FROM vocab WHERE n IN (1 + (q * 7) % 408, 1 + (q * 11) % 408, 1 + (q * 13) % 408, 1 + (q * 19) % 408, 1 + (q * 23) % 408)) || '.',
         '[]'::jsonb, gen_random_uuid(), CASE WHEN q % 10 = 0 THEN '${OWNER}' ELSE 'someone-' || (q % 97) END,
         'Similar Owner', 'owner@example.com', 'guest', 'Gus', now() - q * interval '1 minute', now(), now(), 2
  FROM generate_series(1, 20000) AS q`);
// Vacuumed as autovacuum keeps a live table (a bulk load is vacuumed within a minute): index-only reads count on it.
await seed.query('VACUUM ANALYZE questions.questions');
const { rows } = await seed.query<{ question: string }>(
  `SELECT question FROM questions.questions WHERE to_username = $1 ORDER BY created_at ASC LIMIT 1`,
  [OWNER],
);
const { rows: counted } = await seed.query<{ n: number }>(`SELECT count(*)::int AS n FROM questions.questions WHERE to_username = $1`, [OWNER]);

process.stdout.write(`${JSON.stringify({ questionsUrl: questions.url, owner: OWNER, answers: counted[0]!.n, oldestTitle: rows[0]!.question })}\n`);

const shutdown = async () => {
  await questions.stop();
  await seed.end();
  await database.close();
  await testDb.drop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
