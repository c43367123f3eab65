import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMBEDDED_PID_FILE, identityService, runningEmbedded } from '@ques/identity';
import {
  connectEmbedded,
  EventStore,
  openEmbeddedPostgres,
  rebuildProjections,
  type EmbeddedPostgres,
  type KitTables,
  type Logger,
  type ServiceDefinition,
} from '@ques/kit';
import { paymentsService } from '@ques/payments';
import { questionsService } from '@ques/questions';
import { supportService } from '@ques/support';

/*
 * The embedded run mode's backup (issue 33, ADR 0059): the data folder (PGlite's cluster under pg/, the JWT keys, the
 * captcha key, mail) copied while `npm start` is stopped — PGlite serves one process, and a stopped cluster's folder
 * is consistent as it lies — with a manifest of every table's checksum and the money totals. The restore copies it
 * into a fresh folder, rebuilds every read model from the events (as the distributed restore does) and compares.
 */

const SCHEMAS = ['identity', 'questions', 'payments', 'support'] as const;
/** Written by operator tools themselves, so never compared. */
const NOT_COMPARED = new Set(['operator_log']);

export interface EmbeddedFigures {
  tables: Record<string, { rows: number; checksum: string }>;
  questions: number;
  answers: number;
  tips: number;
  ledgerCents: number;
  feeCents: number;
  netCents: number;
}

export interface EmbeddedManifest {
  takenAt: string;
  figures: EmbeddedFigures;
}

/** Every table's row count and order-independent checksum, and what must not go missing (as the chaos drill's). */
export async function embeddedFigures(pg: EmbeddedPostgres): Promise<EmbeddedFigures> {
  const q = async <T>(text: string, params: unknown[] = []) => (await pg.pglite.query<T>(text, params)).rows;
  const figures: EmbeddedFigures = {
    tables: {},
    questions: 0,
    answers: 0,
    tips: 0,
    ledgerCents: 0,
    feeCents: 0,
    netCents: 0,
  };
  const tables = await q<{ s: string; t: string }>(
    `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
      WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE' ORDER BY 1, 2`,
    [[...SCHEMAS]],
  );
  for (const { s, t } of tables) {
    if (NOT_COMPARED.has(t)) continue;
    const [row] = await q<{ n: string; sum: string }>(
      `SELECT count(*)::text AS n, coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') AS sum FROM "${s}"."${t}" AS x`,
    );
    figures.tables[`${s}.${t}`] = { rows: Number(row?.n ?? 0), checksum: row?.sum ?? '' };
  }
  const [counts] = await q<Record<string, string>>(
    `SELECT (SELECT count(*) FROM questions.questions WHERE lifecycle <> 'awaiting_payment')::text AS questions,
            (SELECT count(*) FROM questions.questions WHERE answer IS NOT NULL)::text AS answers,
            (SELECT count(*) FROM payments.tips)::text AS tips,
            (SELECT coalesce(sum(amount), 0) FROM payments.ledger)::text AS ledger,
            (SELECT coalesce(sum(application_fee), 0) FROM payments.ledger)::text AS fee,
            (SELECT coalesce(sum(net), 0) FROM payments.ledger)::text AS net`,
  );
  figures.questions = Number(counts?.questions ?? 0);
  figures.answers = Number(counts?.answers ?? 0);
  figures.tips = Number(counts?.tips ?? 0);
  figures.ledgerCents = Number(counts?.ledger ?? 0);
  figures.feeCents = Number(counts?.fee ?? 0);
  figures.netCents = Number(counts?.net ?? 0);
  return figures;
}

/** What differs between two sets of figures, one line each. */
export function embeddedDifferences(before: EmbeddedFigures, after: EmbeddedFigures): string[] {
  const out: string[] = [];
  for (const key of [...new Set([...Object.keys(before.tables), ...Object.keys(after.tables)])].sort()) {
    const a = before.tables[key];
    const b = after.tables[key];
    if (a?.rows !== b?.rows || a?.checksum !== b?.checksum)
      out.push(`${key}: ${a?.rows ?? 'none'} rows before, ${b?.rows ?? 'none'} after`);
  }
  for (const field of ['questions', 'answers', 'tips', 'ledgerCents', 'feeCents', 'netCents'] as const)
    if (before[field] !== after[field]) out.push(`${field}: ${before[field]} before, ${after[field]} after`);
  return out;
}

function assertStopped(dataDir: string): void {
  const pid = runningEmbedded(dataDir);
  if (pid !== null)
    throw new Error(
      `Ques is running on ${dataDir} (pid ${pid}): stop it first (a copy taken while it writes is not consistent)`,
    );
}

/** `npm run backup -w @ques/launcher -- --out DIR`: copies the stopped data folder to DIR/data with DIR/backup.json. */
export async function backupEmbedded(opts: { dataDir: string; out: string }): Promise<EmbeddedManifest> {
  if (!existsSync(join(opts.dataDir, 'pg', 'PG_VERSION')))
    throw new Error(`No embedded database under ${opts.dataDir}`);
  assertStopped(opts.dataDir);
  if (existsSync(opts.out) && readdirSync(opts.out).length > 0) throw new Error(`${opts.out} is not empty`);
  mkdirSync(opts.out, { recursive: true });
  const copy = join(opts.out, 'data');
  cpSync(opts.dataDir, copy, { recursive: true, filter: (src) => !src.endsWith(EMBEDDED_PID_FILE) });
  // The figures are read from the copy: what the manifest describes is exactly what was kept.
  const pg = await openEmbeddedPostgres(join(copy, 'pg'));
  try {
    const manifest: EmbeddedManifest = {
      takenAt: new Date().toISOString(),
      figures: await embeddedFigures(pg),
    };
    writeFileSync(join(opts.out, 'backup.json'), JSON.stringify(manifest, null, 2));
    return manifest;
  } finally {
    await pg.pglite.close();
  }
}

type AnyDefinition = Pick<
  ServiceDefinition<any, any, any, any>,
  'name' | 'projections' | 'toIntegration' | 'cipher'
>;
const DEFINITIONS: AnyDefinition[] = [identityService, questionsService, paymentsService, supportService];

/** Rebuilds every service's read models from its events (the embedded rebuild: one transaction per service). */
export async function rebuildEmbedded(pg: EmbeddedPostgres, log: Logger): Promise<Record<string, number>> {
  const applied: Record<string, number> = {};
  for (const def of DEFINITIONS) {
    const database = connectEmbedded<KitTables>(pg, def.name);
    const store = new EventStore<KitTables>({
      database,
      context: def.name,
      projections: def.projections,
      toIntegration: def.toIntegration,
      cipher: def.cipher,
    });
    applied[def.name] = await rebuildProjections(store, log);
  }
  return applied;
}

/**
 * `npm run restore -w @ques/launcher -- --from DIR`: copies the backup into an empty data folder, rebuilds the read
 * models and compares every table with the manifest. Refuses a folder that already holds a database.
 */
export async function restoreEmbedded(opts: {
  from: string;
  dataDir: string;
  log: Logger;
}): Promise<{ differences: string[]; rebuilt: Record<string, number> }> {
  const manifest = JSON.parse(readFileSync(join(opts.from, 'backup.json'), 'utf8')) as EmbeddedManifest;
  if (existsSync(join(opts.dataDir, 'pg')))
    throw new Error(`${opts.dataDir} already holds a database: restore into a fresh folder`);
  cpSync(join(opts.from, 'data'), opts.dataDir, { recursive: true });
  const pg = await openEmbeddedPostgres(join(opts.dataDir, 'pg'));
  try {
    const rebuilt = await rebuildEmbedded(pg, opts.log);
    return { differences: embeddedDifferences(manifest.figures, await embeddedFigures(pg)), rebuilt };
  } finally {
    await pg.pglite.close();
  }
}
