import pg from 'pg';
import { postgresServerUrl } from './infra.js';

/**
 * Fault injection: terminates every backend connected to the database of `databaseUrl` (as an operator, a failover
 * or an idle-session killer would), from a session on the server's maintenance database. Returns how many it ended.
 */
export async function terminateBackends(databaseUrl: string): Promise<number> {
  const server = await postgresServerUrl();
  if (!server) throw new Error('No Postgres for tests: set TEST_DATABASE_URL or start Postgres on 127.0.0.1:5432');
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: number }>(
      `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS ended
         FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [database],
    );
    return rows[0]?.ended ?? 0;
  } finally {
    await admin.end();
  }
}
