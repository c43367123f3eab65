/**
 * The baseline for the public list, in its own process (`src/targets.ts` starts it): bare Fastify + raw `pg`, the
 * same SQL as the questions service's public list, on the same database.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { serve, serverConfig } from './server-process.js';

const { databaseUrl, page } = serverConfig<{ databaseUrl: string; page: number }>();

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const bare = Fastify();
bare.get<{ Querystring: { username: string } }>('/api/questions', async (request) => {
  const { rows } = await pool.query(
    `SELECT * FROM questions.questions WHERE to_username = $1 AND lifecycle = 'answered' AND display_on_profile AND NOT deleted_by_receiver
     ORDER BY created_at DESC, id DESC LIMIT ${page + 1}`,
    [request.query.username],
  );
  return rows.slice(0, page);
});
const bareFastify = await bare.listen({ port: 0, host: '127.0.0.1' });

serve({ bareFastify }, async () => {
  await bare.close();
  await pool.end();
});
