import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { identityService } from '@ques/identity';
import { paymentsService } from '@ques/payments';
import { questionsService } from '@ques/questions';
import { supportService } from '@ques/support';
import { HARNESS_APPLICATION_NAME, withClient } from '../topology/postgres.js';
import { readFigures, SERVICE_SCHEMAS, type DataFigures, type ServiceSchema } from './figures.js';
import { saveStreams, type StreamsBackup } from './streams.js';

const run = promisify(execFile);

/** Each service's read models: the tables its projections write, rebuilt from its events after a restore. */
export function readModels(): Record<ServiceSchema, string[]> {
  const tables = (def: { projections: readonly { tables: string[] }[] }) => [
    ...new Set(def.projections.flatMap((p) => p.tables)),
  ];
  return {
    identity: tables(identityService),
    questions: tables(questionsService),
    payments: tables(paymentsService),
    support: tables(supportService),
  };
}

/** `backup.json` beside the dumps: what was taken, and the figures a restore must give back. */
export interface BackupManifest {
  takenAt: string;
  /** The exported snapshot every dump and the figures were read in (one instant for all four schemas). */
  snapshot: string;
  schemas: { schema: ServiceSchema; file: string; bytes: number; readModelsLeftOut: string[] }[];
  /** Extensions the services' migrations created in `public` (a schema dump does not carry them). */
  extensions: string[];
  figures: DataFigures;
  jetstream: StreamsBackup | null;
  durationMs: number;
}

export interface BackupOptions {
  databaseUrl: string;
  dir: string;
  /** The event streams' configuration goes into the manifest too. */
  nats?: { url: string; namespace: string };
}

/**
 * The distributed backup: one `pg_dump -Fc` per service schema, all in one exported snapshot (so the four files are
 * one instant, taken while the services keep writing), without the read models' rows — they are derived from the
 * events and the restore rebuilds them — plus the manifest with every table's checksum read in that same snapshot.
 */
export async function backupDatabase(opts: BackupOptions): Promise<BackupManifest> {
  const started = Date.now();
  mkdirSync(opts.dir, { recursive: true });
  const models = readModels();
  const client = new pg.Client({
    connectionString: opts.databaseUrl,
    application_name: HARNESS_APPLICATION_NAME,
  });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query<{ s: string }>('SELECT pg_export_snapshot() AS s')).rows[0]!.s;
    const takenAt = (await client.query<{ t: Date }>('SELECT now() AS t')).rows[0]!.t.toISOString();
    const extensions = (
      await client.query<{ extname: string }>(
        `SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY extname`,
      )
    ).rows.map((r) => r.extname);
    // The dumps import the snapshot while this transaction holds it; the figures are read in it meanwhile.
    const dumps = SERVICE_SCHEMAS.map(async (schema) => {
      const file = `${schema}.dump`;
      await run(
        'pg_dump',
        [
          '--format=custom',
          `--snapshot=${snapshot}`,
          `--schema=${schema}`,
          ...models[schema].map((table) => `--exclude-table-data=${schema}.${table}`),
          '--no-owner',
          '--no-privileges',
          `--file=${join(opts.dir, file)}`,
          `--dbname=${opts.databaseUrl}`,
        ],
        { maxBuffer: 16 * 1024 * 1024 },
      );
      return { schema, file, bytes: statSync(join(opts.dir, file)).size, readModelsLeftOut: models[schema] };
    });
    const [schemas, figures] = await Promise.all([Promise.all(dumps), readFigures(client)]);
    await client.query('COMMIT');
    const jetstream = opts.nats ? await saveStreams(opts.nats.url, opts.nats.namespace) : null;
    const manifest: BackupManifest = {
      takenAt,
      snapshot,
      schemas,
      extensions,
      figures,
      jetstream,
      durationMs: Date.now() - started,
    };
    writeFileSync(join(opts.dir, 'backup.json'), JSON.stringify(manifest, null, 2));
    return manifest;
  } finally {
    await client.end().catch(() => {});
  }
}

export const readManifest = (dir: string): BackupManifest =>
  JSON.parse(readFileSync(join(dir, 'backup.json'), 'utf8')) as BackupManifest;

/**
 * Restores a backup into an empty database: the extensions first (they live in `public`), then each schema's dump.
 * Refuses a database that already holds one of the schemas (a restore is into a fresh database, never over data).
 * The read models come back empty: rebuild them (`rebuild-projections`) before the services start.
 */
export async function restoreDatabase(databaseUrl: string, dir: string): Promise<{ durationMs: number }> {
  const started = Date.now();
  const manifest = readManifest(dir);
  await withClient(databaseUrl, async (c) => {
    const existing = await c.query<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace WHERE nspname = ANY($1)`,
      [manifest.schemas.map((s) => s.schema)],
    );
    if (existing.rows.length)
      throw new Error(
        `restore refused: the database already has ${existing.rows.map((r) => r.nspname).join(', ')} (restore into a fresh database)`,
      );
    for (const ext of manifest.extensions)
      await c.query(`CREATE EXTENSION IF NOT EXISTS "${ext}" WITH SCHEMA public`);
  });
  for (const { file } of manifest.schemas) {
    await run(
      'pg_restore',
      ['--exit-on-error', '--no-owner', '--no-privileges', `--dbname=${databaseUrl}`, join(dir, file)],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  }
  return { durationMs: Date.now() - started };
}

/** The figures of a database now (outside any snapshot): after a restore and rebuild, to compare with the manifest. */
export async function currentFigures(databaseUrl: string): Promise<DataFigures> {
  return withClient(databaseUrl, (c) => readFigures(c), 30_000);
}
