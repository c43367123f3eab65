import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Where integration tests find real infrastructure, in this order: TEST_DATABASE_URL / TEST_NATS_URL, the local
 * defaults (127.0.0.1:5432 as postgres, 127.0.0.1:4222) when they answer, testcontainers when Docker is there.
 * Without any, a suite is skipped with a message — except under CI=true, where missing infrastructure is a failure.
 */
export const isCI = () => process.env.CI === 'true';

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
let serverUrl: Promise<string | null> | null = null;

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const dockerAvailable = () => existsSync('/var/run/docker.sock') || !!process.env.DOCKER_HOST;

async function containerPostgres(): Promise<string | null> {
  if (!dockerAvailable()) return null;
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('postgres:16-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    return `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
  } catch {
    return null;
  }
}

/** A Postgres server URL (maintenance database) for tests, or null. */
export function postgresServerUrl(): Promise<string | null> {
  serverUrl ??= (async () => {
    const explicit = process.env.TEST_DATABASE_URL;
    if (explicit) return explicit;
    if (await answers(LOCAL_POSTGRES)) return LOCAL_POSTGRES;
    return containerPostgres();
  })();
  return serverUrl;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the test server (one per test file keeps files independent). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = await postgresServerUrl();
  if (!server) throw new Error('No Postgres for tests: set TEST_DATABASE_URL or start Postgres on 127.0.0.1:5432');
  const name = `ques_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Decides whether an integration suite runs. Returns true when `available`; otherwise logs why it is skipped,
 * or throws under CI so missing infrastructure can never pass as green.
 */
export function infraGate(available: boolean, what: string): boolean {
  if (available) return true;
  const message = `${what} is not reachable: integration tests need it (set TEST_DATABASE_URL / TEST_NATS_URL or start the local services)`;
  if (isCI()) throw new Error(message);
  console.warn(`[skipped] ${message}`);
  return false;
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 10_000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`eventually: condition not met in ${timeoutMs} ms${lastError ? `: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
