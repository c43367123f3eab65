import { userInfo } from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Context } from '@ques/contracts';
import type { EventBus } from '../bus/bus.js';
import { decodeEnvelope } from '../bus/naming.js';
import { connectPostgres, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { kitView, type KitTables } from '../db/schema.js';
import type { ConsumerDefinition } from '../events/consumer.js';
import { EventStore, type EventStoreOptions } from '../events/event-store.js';
import { rebuildProjections } from '../events/replay.js';

/**
 * Operator tools (ADR 0027), as plain functions over a service's database (and bus): the admin CLI calls them, and so
 * can a future operator console. Every change goes through `recordOperatorAction`: who, what, and what changed.
 */

/** Who runs a command: the `--operator` given, else the OS user. */
export function operatorName(given?: string): string {
  if (given && given.trim()) return given.trim();
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

export interface OperatorAction {
  operator: string;
  command: string;
  /** What changed (ids, counts, checksums). */
  detail: Record<string, unknown>;
}

/**
 * The operators' audit trail: `operator_log` in the service's schema, created on first use (only operator tools write
 * it, so it is not part of the service's frozen migrations), and a log line.
 */
export async function recordOperatorAction(
  db: Kysely<any>,
  log: Logger,
  action: OperatorAction,
): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS operator_log (
    id bigserial PRIMARY KEY,
    operator text NOT NULL,
    command text NOT NULL,
    detail jsonb NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`INSERT INTO operator_log (operator, command, detail) VALUES (${action.operator}, ${action.command}, ${JSON.stringify(action.detail)}::jsonb)`.execute(
    db,
  );
  log.info(
    { operator: action.operator, command: action.command, ...action.detail },
    `operator: ${action.command}`,
  );
}

async function lastAction(
  db: Kysely<any>,
  command: string,
): Promise<{ operator: string; at: Date; detail: unknown } | null> {
  const exists = await sql<{ t: string | null }>`SELECT to_regclass('operator_log')::text AS t`.execute(db);
  if (!exists.rows[0]?.t) return null;
  const { rows } = await sql<{ operator: string; at: Date; detail: unknown }>`
    SELECT operator, at, detail FROM operator_log WHERE command = ${command} ORDER BY id DESC LIMIT 1`.execute(
    db,
  );
  return rows[0] ?? null;
}

export interface ServiceStatus {
  service: string;
  /** Last sequence of each stream the service writes or reads (null: stream missing or bus not given). */
  streams: Record<string, number | null>;
  consumers: { durable: string; stream: string; pending: number; ackPending: number; redelivered: number }[];
  outbox: { backlog: number; oldestAgeSeconds: number };
  deadLetters: Record<string, number>;
  scheduler: { due: number; latenessSeconds: number };
  lastRebuild: { operator: string; at: Date; detail: unknown } | null;
}

/** `status`: one service's pipeline at a glance. */
export async function serviceStatus(opts: {
  service: Context;
  db: Kysely<any>;
  bus?: EventBus | null;
  /** Contexts whose streams the service reads. */
  consumes?: readonly Context[];
  /** The durables of this service (`<service>--…` and its revocations consumer), read from the server. */
  durables?: readonly { context: Context; durable: string }[];
}): Promise<ServiceStatus> {
  const { db, bus } = opts;
  const contexts = [...new Set([opts.service, ...(opts.consumes ?? [])])];
  const [outbox, dead, due, lastRebuild, streams, consumers] = await Promise.all([
    sql<{ backlog: number; oldest: number | null }>`
      SELECT count(*)::int AS backlog, extract(epoch FROM now() - min(created_at))::float8 AS oldest
      FROM outbox WHERE published_at IS NULL`.execute(db),
    sql<{
      consumer: string;
      n: number;
    }>`SELECT consumer, count(*)::int AS n FROM dead_letters GROUP BY consumer ORDER BY consumer`.execute(db),
    sql<{ due: number; lateness: number | null }>`
      SELECT count(*)::int AS due, extract(epoch FROM now() - min(due_at))::float8 AS lateness
      FROM scheduled_jobs WHERE status = 'pending' AND due_at <= now()`.execute(db),
    lastAction(db, 'rebuild-projections'),
    bus?.streamSequences
      ? bus.streamSequences(contexts)
      : Promise.resolve(Object.fromEntries(contexts.map((c) => [c, null]))),
    bus?.durableStats && opts.durables ? bus.durableStats(opts.durables) : Promise.resolve([]),
  ]);
  return {
    service: opts.service,
    streams,
    consumers,
    outbox: {
      backlog: outbox.rows[0]?.backlog ?? 0,
      oldestAgeSeconds: Math.max(0, outbox.rows[0]?.oldest ?? 0),
    },
    deadLetters: Object.fromEntries(dead.rows.map((r) => [r.consumer, r.n])),
    scheduler: { due: due.rows[0]?.due ?? 0, latenessSeconds: Math.max(0, due.rows[0]?.lateness ?? 0) },
    lastRebuild,
  };
}

export interface DeadLetter {
  id: number;
  consumer: string;
  subject: string;
  eventId: string | null;
  error: string;
  attempts: number;
  createdAt: Date;
}

/** `dead-letters list`: the parked messages, oldest first. */
export async function listDeadLetters<DB extends KitTables>(db: Kysely<DB>): Promise<DeadLetter[]> {
  const rows = await kitView(db)
    .selectFrom('dead_letters')
    .select(['id', 'consumer', 'subject', 'event_id', 'error', 'attempts', 'created_at'])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    consumer: r.consumer,
    subject: r.subject,
    eventId: r.event_id,
    error: r.error,
    attempts: r.attempts,
    createdAt: r.created_at,
  }));
}

export type RetryOutcome =
  | { id: number; outcome: 'applied'; consumer: string; eventId: string }
  | { id: number; outcome: 'already applied'; consumer: string; eventId: string }
  | { id: number; outcome: 'not found' }
  | { id: number; outcome: 'failed'; error: string };

/**
 * `dead-letters retry ID`: runs the parked event through its consumer's handler again — in one transaction that
 * removes the dead letter, marks the event processed for that consumer and applies the effect. So a retry applies it
 * exactly once: a second retry (or a concurrent one) finds no dead letter, and an event the consumer has meanwhile
 * processed is not applied twice. A handler that fails again leaves the dead letter where it was.
 */
export async function retryDeadLetter<DB extends KitTables>(
  database: Database<DB>,
  consumers: readonly ConsumerDefinition<DB>[],
  id: number,
  who: { operator: string; log: Logger },
): Promise<RetryOutcome> {
  let outcome: RetryOutcome;
  try {
    outcome = await database.db.transaction().execute(async (trx) => {
      const row = await kitView(trx)
        .deleteFrom('dead_letters')
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) return { id, outcome: 'not found' as const };
      const consumer = consumers.find((c) => c.durable === row.consumer);
      if (!consumer) throw new Error(`no consumer named ${row.consumer} in this service`);
      const decoded = decodeEnvelope(row.payload);
      if (!decoded.ok) throw new Error(`the parked payload is still not an event: ${decoded.error}`);
      const envelope = decoded.envelope;
      const handler = consumer.handlers[envelope.type];
      const marked = await kitView(trx)
        .insertInto('processed_events')
        .values({ consumer: row.consumer, event_id: envelope.id })
        .onConflict((oc) => oc.doNothing())
        .returning('event_id')
        .executeTakeFirst();
      if (!marked)
        return { id, outcome: 'already applied' as const, consumer: row.consumer, eventId: envelope.id };
      if (handler) await handler.effect(trx, { ...envelope, data: handler.schema.parse(envelope.data) });
      return { id, outcome: 'applied' as const, consumer: row.consumer, eventId: envelope.id };
    });
  } catch (err) {
    outcome = { id, outcome: 'failed', error: err instanceof Error ? err.message : String(err) };
  }
  await recordOperatorAction(database.db, who.log, {
    operator: who.operator,
    command: 'dead-letters retry',
    detail: { ...outcome },
  });
  return outcome;
}

/** `dead-letters retry --all`: every parked message, oldest first. */
export async function retryAllDeadLetters<DB extends KitTables>(
  database: Database<DB>,
  consumers: readonly ConsumerDefinition<DB>[],
  who: { operator: string; log: Logger },
): Promise<RetryOutcome[]> {
  const outcomes: RetryOutcome[] = [];
  for (const letter of await listDeadLetters(database.db))
    outcomes.push(await retryDeadLetter(database, consumers, letter.id, who));
  return outcomes;
}

/** `dead-letters drop ID`: gives up on a parked message (its payload goes to the operator log). */
export async function dropDeadLetter<DB extends KitTables>(
  database: Database<DB>,
  id: number,
  who: { operator: string; log: Logger },
): Promise<boolean> {
  const row = await kitView(database.db)
    .deleteFrom('dead_letters')
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  await recordOperatorAction(database.db, who.log, {
    operator: who.operator,
    command: 'dead-letters drop',
    detail: row
      ? { id, consumer: row.consumer, eventId: row.event_id, subject: row.subject, payload: row.payload }
      : { id, outcome: 'not found' },
  });
  return !!row;
}

export interface TableChecksum {
  rows: number;
  checksum: string;
}

/** Row count and an order-independent checksum of a table's rows. */
async function checksumOf(db: Kysely<any>, schema: string, table: string): Promise<TableChecksum> {
  const { rows } = await sql<{ n: number; sum: string }>`
    SELECT count(*)::int AS n, coalesce(md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))), '') AS sum
    FROM ${sql.table(`${schema}.${table}`)} AS t`.execute(db);
  return { rows: rows[0]?.n ?? 0, checksum: rows[0]?.sum ?? '' };
}

/** Tables a dry run never copies: the pipeline's own bookkeeping, not inputs of any projection. */
const NOT_COPIED = new Set([
  'events',
  'outbox',
  'processed_events',
  'dead_letters',
  'idempotency_keys',
  'operator_log',
  'kysely_migration',
  'kysely_migration_lock',
]);

export interface DryRunResult {
  events: number;
  tables: Record<string, { live: TableChecksum; rebuilt: TableChecksum; same: boolean }>;
  same: boolean;
}

/**
 * `rebuild-projections --dry-run`: replays the event store into a scratch schema (same migrations, a copy of the
 * events and of every other input table), with the kit's own replay (`rebuildProjections`), then compares each read
 * model with the live one by row count and checksum. The live tables are only read; the scratch schema is dropped.
 */
export async function dryRunRebuild<DB extends KitTables>(opts: {
  connectionString: string;
  database: Database<DB>;
  store: Omit<EventStoreOptions<DB>, 'database'>;
  migrations: Parameters<typeof migrate>[1];
  log: Logger;
  who: { operator: string };
}): Promise<DryRunResult> {
  const live = opts.database.schema;
  const scratchName = `${live}_dryrun_${randomBytes(4).toString('hex')}`;
  const scratch = connectPostgres<DB>({
    connectionString: opts.connectionString,
    schema: scratchName,
    max: 2,
  });
  try {
    await migrate(scratch, opts.migrations);
    const projectionTables = new Set(opts.store.projections.flatMap((p) => p.tables));
    const { rows: tables } = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = ${live} AND table_type = 'BASE TABLE'`.execute(
      opts.database.db,
    );
    for (const { table_name: table } of tables) {
      if (projectionTables.has(table) || NOT_COPIED.has(table)) continue;
      await sql`INSERT INTO ${sql.table(`${scratchName}.${table}`)} SELECT * FROM ${sql.table(`${live}.${table}`)}`.execute(
        scratch.db,
      );
    }
    await sql`INSERT INTO ${sql.table(`${scratchName}.events`)} SELECT * FROM ${sql.table(`${live}.events`)}`.execute(
      scratch.db,
    );
    const store = new EventStore<DB>({ ...opts.store, database: scratch });
    const events = await rebuildProjections(store, opts.log.child({ dryRun: scratchName }));
    const result: DryRunResult = { events, tables: {}, same: true };
    for (const table of [...projectionTables].sort()) {
      const [a, b] = await Promise.all([
        checksumOf(opts.database.db, live, table),
        checksumOf(scratch.db, scratchName, table),
      ]);
      const same = a.rows === b.rows && a.checksum === b.checksum;
      result.tables[table] = { live: a, rebuilt: b, same };
      if (!same) result.same = false;
    }
    await recordOperatorAction(opts.database.db, opts.log, {
      operator: opts.who.operator,
      command: 'rebuild-projections --dry-run',
      detail: {
        events,
        same: result.same,
        differing: Object.keys(result.tables).filter((t) => !result.tables[t]!.same),
      },
    });
    return result;
  } finally {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(scratchName)} CASCADE`
      .execute(opts.database.db)
      .catch(() => undefined);
    await scratch.close();
  }
}
