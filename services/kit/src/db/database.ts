import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { withCommitHooks } from './commit-hooks.js';
import { EmbeddedPostgres, PGliteDialect } from './pglite-dialect.js';
import type { KitTables } from './schema.js';
import { prepareRepeatedStatements, StatementNames } from './prepared-statements.js';

// bigint columns (global positions, counters) fit in a double for this product's lifetime; read them as numbers.
const INT8_OID = 20;
const pgTypes = {
  getTypeParser: (oid: number, format?: any) =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
};

/** A leadership claim (session-level advisory lock). `lost` resolves if the session holding it dies. */
export interface Leadership {
  lost: Promise<void>;
  release(): Promise<void>;
}

/**
 * A service's handle on its own schema, on real Postgres or on the embedded PGlite. Everything a service does with
 * its database goes through this: Kysely for queries, `listen` for LISTEN/NOTIFY, `tryLead` for one-at-a-time work.
 * `DB` is the service's table interface (its `src/db/schema.ts`), which extends the kit's `KitTables`.
 */
export interface Database<DB = KitTables> {
  readonly db: Kysely<DB>;
  readonly schema: string;
  readonly kind: 'postgres' | 'embedded';
  /**
   * Subscribes to NOTIFY on `channel`: `onNotify` gets the notification's payload, or undefined when the listener
   * (re)connected and notifications may have been missed. Resolves once listening.
   */
  listen(channel: string, onNotify: (payload?: string) => void): Promise<() => Promise<void>>;
  /** Tries to become the single holder of `lockName` in this database; null if someone else holds it. */
  tryLead(lockName: string): Promise<Leadership | null>;
  /**
   * Postgres only: runs `fn` on one pooled connection, given both as a Kysely (its transactions run on that
   * connection) and as the raw client, for what Kysely cannot say (`COPY … FROM STDIN`, ADR 0039).
   */
  withConnection?<T>(fn: (db: Kysely<DB>, client: pg.ClientBase) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
}

export interface PostgresOptions {
  connectionString: string;
  schema: string;
  /** Pool size. */
  max?: number;
  applicationName?: string;
  /**
   * Prepare statements sent repeatedly (`StatementNames`, ADR 0051): Postgres parses and plans them once per
   * connection instead of on every execution. Default true (a service's `PG_PREPARE_STATEMENTS=false` passes false).
   */
  prepareStatements?: boolean;
}

export function connectPostgres<DB = KitTables>(opts: PostgresOptions): Database<DB> {
  assertSchemaName(opts.schema);
  const base = {
    connectionString: opts.connectionString,
    options: `-c search_path=${opts.schema},public`,
    application_name: opts.applicationName ?? opts.schema,
    types: pgTypes,
  };
  const pool = new pg.Pool({ ...base, max: opts.max ?? 10, idleTimeoutMillis: 30_000 });
  // A pooled client dying (e.g. Postgres restarting) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // pg-pool listens for errors only on idle clients. A checked-out client that loses its connection between two
  // queries (Kysely holds one across a transaction's awaits) would emit 'error' with no listener and crash the
  // process. This listener lives as long as the client: the loss reaches the caller as its query's rejection, and
  // the pool discards the broken client when it is released.
  const statementNames = opts.prepareStatements === false ? null : new StatementNames();
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (statementNames) prepareRepeatedStatements(client, statementNames);
  });
  const db = new Kysely<DB>({ dialect: withCommitHooks(new PostgresDialect({ pool })) });
  const dedicated = new Set<pg.Client>();

  async function dedicatedClient(): Promise<pg.Client> {
    const client = new pg.Client(base);
    client.on('error', () => {});
    await client.connect();
    dedicated.add(client);
    client.on('end', () => dedicated.delete(client));
    return client;
  }

  return {
    db,
    schema: opts.schema,
    kind: 'postgres',
    async listen(channel, onNotify) {
      let client: pg.Client | null = null;
      let closed = false;
      const connectListener = async (): Promise<void> => {
        try {
          client = await dedicatedClient();
          client.on('notification', (msg) => {
            if (msg.channel === channel) onNotify(msg.payload);
          });
          client.on('end', () => {
            // Reconnect with a delay; meanwhile the caller's polling fallback keeps work moving.
            if (!closed) setTimeout(() => void connectListener(), 1000).unref();
          });
          await client.query(`LISTEN "${channel}"`);
          onNotify(); // anything that arrived while we were not listening
        } catch {
          if (!closed) setTimeout(() => void connectListener(), 1000).unref();
        }
      };
      await connectListener();
      return async () => {
        closed = true;
        await (client)?.end().catch(() => {});
      };
    },
    async tryLead(lockName) {
      const client = await dedicatedClient();
      const { rows } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
        [`${opts.schema}:${lockName}`],
      );
      if (!rows[0]?.locked) {
        await client.end().catch(() => {});
        return null;
      }
      const lost = new Promise<void>((resolve) => {
        client.on('end', resolve);
        client.on('error', () => {
          resolve();
          // A broken session that somehow lingered would keep the lock from everyone, this process included.
          void client.end().catch(() => {});
        });
      });
      return {
        lost,
        release: async () => {
          await client.end().catch(() => {});
        },
      };
    },
    async withConnection(fn) {
      const client = await pool.connect();
      // A pool of that one connection: Kysely acquires and "releases" it per query and transaction; it goes back
      // to the real pool once `fn` is done.
      const one = { query: client.query.bind(client), release: () => {} };
      const single = new Kysely<DB>({
        dialect: withCommitHooks(new PostgresDialect({ pool: { connect: async () => one, end: async () => {} } })),
      });
      let failed = false;
      try {
        return await fn(single, client);
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        // After a failure the session's state is unknown (a COPY cut short): the pool drops it.
        client.release(failed);
      }
    },
    async close() {
      await Promise.all([...dedicated].map((c) => c.end().catch(() => {})));
      await db.destroy();
    },
  };
}

/**
 * Postgres settings of the embedded PGlite (one Postgres in the product's own process, whose memory is part of
 * `npm start`'s RSS, docs/adr/0035):
 * - `shared_buffers=32MB`: Postgres's 128 MB default is sized for a server with a machine to itself; here the data
 *   files are also in the OS page cache (PGlite reads them through the Node file system), and the buffer pool lives
 *   in the WebAssembly heap, which never shrinks. 32 MB holds the embedded product's working set many times over.
 * - fsync stays on (PGlite's own defaults turn it off with `-F`): `npm start` keeps real data in `.data/`.
 * PGlite's other start parameters (single-user mode, no background or parallel workers) are kept as they are.
 */
export const EMBEDDED_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'shared_buffers=32MB',
];

/**
 * Creates the database cluster in a new data folder (Postgres's initdb) in a short-lived child process. PGlite runs
 * initdb in a WebAssembly instance of its own over an in-memory copy of the cluster: several hundred MB that, done in
 * the product's process, would stay in its malloc arena for as long as it runs (+90 MB of RSS after the first start,
 * docs/adr/0035). The child exits, its memory goes back to the system, and this process opens the folder as every
 * later start does.
 */
async function createCluster(dataDir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(process.argv[1]);
PGlite.create(JSON.parse(process.argv[2])).then((pg) => pg.close()).catch((error) => { console.error(error); process.exit(1); });`;
  const options = { dataDir, database: 'template1', startParams: EMBEDDED_START_PARAMS };
  await promisify(execFile)(process.execPath, ['-e', script, pglite, JSON.stringify(options)], { timeout: 120_000 });
}

/**
 * The image of a new, empty cluster (initdb's output as an uncompressed tar, `dumpDataDir`), for in-memory databases:
 * opening one from it takes about 1.2 s here instead of 3.7–5.3 s of initdb in WebAssembly (ADR 0045). Made once per
 * PGlite version and start parameters, by a short-lived child process like `createCluster`, and kept in the OS temp
 * folder; the file is written under a temporary name and renamed, so concurrent test workers never read half of one.
 * It holds no data: every service still creates its schema by its own migrations.
 */
async function emptyClusterImage(): Promise<Blob> {
  const require = createRequire(import.meta.url);
  const pglite = require.resolve('@electric-sql/pglite');
  // The package's exports do not include its package.json: read it beside the entry point (dist/index.cjs).
  const { version } = JSON.parse(readFileSync(join(dirname(pglite), '..', 'package.json'), 'utf8')) as { version: string };
  const key = createHash('sha256').update(JSON.stringify([version, EMBEDDED_START_PARAMS])).digest('hex').slice(0, 16);
  const path = join(tmpdir(), `ques-pglite-empty-${key}.tar`);
  if (!existsSync(path)) {
    const script = `const { PGlite } = require(process.argv[1]);
const { writeFileSync, renameSync } = require('node:fs');
PGlite.create(JSON.parse(process.argv[2]))
  .then(async (pg) => { const tar = Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer()); await pg.close();
    const part = process.argv[3] + '.' + process.pid; writeFileSync(part, tar); renameSync(part, process.argv[3]); })
  .catch((error) => { console.error(error); process.exit(1); });`;
    const options = { database: 'template1', startParams: EMBEDDED_START_PARAMS };
    await promisify(execFile)(process.execPath, ['-e', script, pglite, JSON.stringify(options), path], { timeout: 120_000 });
  }
  return new Blob([readFileSync(path)]);
}

/**
 * Opens (or creates) the embedded PGlite database under `dataDir` (in memory when undefined, from an empty cluster's
 * image). With the contrib
 * extensions a service's migration may `CREATE EXTENSION` (as on real Postgres, where they ship with the server):
 * `pg_trgm` and `btree_gist` (questions' typo-tolerant "already answered?", by owner). The data lives in the `template1` database, where PGlite
 * before 0.4 kept it (0.4 defaults to `postgres`), so existing `.data/` folders open with everything in them.
 */
export async function openEmbeddedPostgres(dataDir?: string): Promise<EmbeddedPostgres> {
  if (dataDir && !existsSync(join(dataDir, 'PG_VERSION'))) await createCluster(dataDir);
  // One options object: `PGlite.create(undefined, options)` (in memory) would drop `options`.
  const pglite = await PGlite.create({
    dataDir,
    loadDataDir: dataDir ? undefined : await emptyClusterImage(),
    database: 'template1',
    startParams: [...EMBEDDED_START_PARAMS],
    parsers: { [INT8_OID]: (value: string) => Number(value) },
    extensions: { pg_trgm, btree_gist },
  });
  return new EmbeddedPostgres(pglite);
}

export function connectEmbedded<DB = KitTables>(embedded: EmbeddedPostgres, schema: string): Database<DB> {
  assertSchemaName(schema);
  const db = new Kysely<DB>({ dialect: withCommitHooks(new PGliteDialect(embedded, schema)) });
  return {
    db,
    schema,
    kind: 'embedded',
    async listen(channel, onNotify) {
      const unlisten = await embedded.lease(schema, () => embedded.pglite.listen(channel, (payload) => onNotify(payload)));
      return async () => {
        await embedded.lease(schema, () => unlisten());
      };
    },
    async tryLead() {
      // One process owns the embedded database: it is always the leader.
      return { lost: new Promise<void>(() => {}), release: async () => {} };
    },
    async close() {
      await db.destroy();
    },
  };
}

export async function ensureSchema<DB>(database: Database<DB>): Promise<void> {
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(database.schema)}`.execute(database.db);
}

/** A unique-constraint violation (SQLSTATE 23505), optionally on a named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  if (!e || e.code !== '23505') return false;
  if (!constraint) return true;
  return e.constraint === constraint || (e.message ?? '').includes(constraint);
}
