import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sleep } from '../util.js';

/** Set on the harness's own connections, so terminating "the services' backends" can spare them. */
export const HARNESS_APPLICATION_NAME = 'ques-chaos-harness';

/** Database names carry the harness's pid, so a later run can drop what a killed run left behind. */
const NAME_PATTERN = /^ques_chaos_(\d+)_[0-9a-f]+$/;

/** Connection failures worth another try: the shared server is full (53300) or starting (57P03), or not listening yet. */
const TRANSIENT = new Set(['53300', '57P03', 'ECONNREFUSED', 'ECONNRESET']);

/**
 * Runs `fn` on a fresh connection to `url` (closed afterwards, errors on an idle connection swallowed). Connecting is
 * retried for up to 20 s: the Postgres server is shared, and other test runs may briefly take every connection.
 */
export async function withClient<T>(
  url: string,
  fn: (client: pg.Client) => Promise<T>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: timeoutMs,
      application_name: HARNESS_APPLICATION_NAME,
    });
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => {});
      const code = (err as { code?: string }).code ?? '';
      if (!TRANSIENT.has(code) || Date.now() > deadline) throw err;
      await sleep(Math.min(100 * 2 ** attempt, 2_000));
      continue;
    }
    try {
      return await fn(client);
    } finally {
      await client.end().catch(() => {});
    }
  }
}

export interface ChaosDatabase {
  name: string;
  url: string;
  serverUrl: string;
}

export async function createDatabase(serverUrl: string): Promise<ChaosDatabase> {
  const name = `ques_chaos_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), serverUrl };
}

export async function dropDatabase(db: ChaosDatabase): Promise<void> {
  await withClient(db.serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`));
}

/** The backup drill's "database lost": drops the database (its connections too) and creates it again, empty. */
export async function recreateDatabase(db: ChaosDatabase): Promise<void> {
  await withClient(db.serverUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${db.name}`);
  });
}

/**
 * The fault of issue 12: every backend of the database is terminated (57P01 on each of the services' connections,
 * idle or in a transaction). The harness's own connections are spared. Returns how many were terminated.
 */
export async function terminateBackends(db: ChaosDatabase): Promise<number> {
  return withClient(db.serverUrl, async (c) => {
    const res = await c.query(
      `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name <> $2`,
      [db.name, HARNESS_APPLICATION_NAME],
    );
    return res.rows.filter((r: { done: boolean }) => r.done).length;
  });
}

/** Drops chaos databases whose harness process is gone (a run killed with -9 cannot clean up after itself). */
export async function dropAbandonedDatabases(serverUrl: string): Promise<string[]> {
  return withClient(serverUrl, async (c) => {
    const res = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'ques_chaos_%'`,
    );
    const dropped: string[] = [];
    for (const { datname } of res.rows) {
      const pid = Number(NAME_PATTERN.exec(datname)?.[1]);
      if (!pid || pid === process.pid || isAlive(pid)) continue;
      await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      dropped.push(datname);
    }
    return dropped;
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
