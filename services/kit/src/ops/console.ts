import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { streamOpsCalls, type Context, type OpsJob, type OpsService } from '@ques/contracts';
import { registerDeadLetterRoutes } from './dead-letter-routes.js';
import type { EventBus } from '../bus/bus.js';
import type { Database } from '../db/database.js';
import type { KitTables } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { ConsumerDefinition } from '../events/consumer.js';
import type { EventStore } from '../events/event-store.js';
import { rebuildProjections, republishEvents } from '../events/replay.js';
import { requireOperator } from '../http/auth.js';
import { routeFor } from '../http/calls.js';
import type { HttpApp } from '../http/http-app.js';
import { metadataFrom } from '../http/http-app.js';
import { idempotentId } from '../http/idempotency.js';
import { recordOperatorActNow } from './operator-audit.js';
import { recordOperatorAction, serviceStatus } from './ops.js';

/*
 * The operator console's event-stream routes (issue 18, ADR 0032): the same kit functions the admin CLI runs
 * (`ops.ts`, ADR 0027), behind an operator guard, declared in contracts (`streamOpsCalls`). Rebuilds and republishes
 * run in the background as jobs whose progress lives in `operator_jobs` (so any replica can report it).
 */

/** Who the operator is, or a refusal (404 for everyone else). */
export type OperatorGuard = (request: FastifyRequest) => Promise<{ userId: string; username: string }>;

/** The platform operator's guard (ADR 0031): the kit's `requireOperator` — everyone else gets a 404. */
export const operatorClaimsGuard: OperatorGuard = async (request) => {
  const claims = await requireOperator(request);
  return { userId: claims.sub, username: claims.username };
};

/** For tools without HTTP callers (the admin CLI): nobody is an operator. */
export const refuseEveryone: OperatorGuard = async () => {
  throw notFound();
};

async function ensureJobsTable(db: Kysely<any>): Promise<void> {
  // Operator bookkeeping like operator_log: created on first use, not service data (no frozen migration).
  await sql`CREATE TABLE IF NOT EXISTS operator_jobs (
    id text PRIMARY KEY,
    command text NOT NULL,
    status text NOT NULL,
    operator text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    done bigint NOT NULL DEFAULT 0,
    total bigint,
    phase text,
    error text
  )`.execute(db);
}

interface JobRow {
  id: string;
  command: string;
  status: string;
  operator: string;
  started_at: Date | string;
  updated_at: Date | string;
  finished_at: Date | string | null;
  done: number | string;
  total: number | string | null;
  phase: string | null;
  error: string | null;
}

export const iso = (d: Date | string) => new Date(d).toISOString();
function toJob(r: JobRow): OpsJob {
  return {
    id: r.id,
    command: r.command as OpsJob['command'],
    status: r.status as OpsJob['status'],
    operator: r.operator,
    startedAt: iso(r.started_at),
    finishedAt: r.finished_at ? iso(r.finished_at) : null,
    progress: { done: Number(r.done), total: r.total === null ? null : Number(r.total), phase: r.phase },
    error: r.error,
  };
}

/** A running job not heard from for this long died with its process (a restart): it no longer blocks new ones. */
const STALE_MS = 60_000;

async function getJob(db: Kysely<any>, id: string): Promise<OpsJob | null> {
  const { rows } = await sql<JobRow>`SELECT * FROM operator_jobs WHERE id = ${id}`.execute(db);
  return rows[0] ? toJob(rows[0]) : null;
}

async function recentJobs(db: Kysely<any>): Promise<OpsJob[]> {
  const { rows } = await sql<JobRow>`SELECT * FROM operator_jobs ORDER BY started_at DESC LIMIT 5`.execute(
    db,
  );
  return rows.map(toJob);
}

export interface StreamOpsDeps<DB extends KitTables> {
  service: OpsService;
  database: Database<DB>;
  store: EventStore<DB>;
  bus: EventBus;
  /** The consumers this service runs (a retry runs the parked message through its own handler). */
  consumers: readonly ConsumerDefinition<DB>[];
  consumes: readonly Context[];
  guard: OperatorGuard;
  log: Logger;
}

/**
 * Starts a background job (one at a time per service), idempotently: the job id derives from the request's
 * Idempotency-Key, so a retried start answers the same job instead of starting another.
 */
async function startJob<DB extends KitTables>(
  deps: StreamOpsDeps<DB>,
  id: string,
  command: OpsJob['command'],
  operator: string,
  total: number | null,
  work: (progress: (done: number, phase?: string) => void) => Promise<Record<string, unknown>>,
): Promise<OpsJob> {
  const db = deps.database.db as Kysely<any>;
  await ensureJobsTable(db);
  const existing = await getJob(db, id);
  if (existing) return existing;
  const { rows: running } = await sql<{ id: string }>`
    SELECT id FROM operator_jobs WHERE status = 'running' AND updated_at > now() - make_interval(secs => ${STALE_MS / 1000})`.execute(
    db,
  );
  if (running.length > 0) throw conflict('A job is already running for this service.');
  await sql`INSERT INTO operator_jobs (id, command, status, operator, total) VALUES (${id}, ${command}, 'running', ${operator}, ${total})
    ON CONFLICT (id) DO NOTHING`.execute(db);
  let last = 0;
  const progress = (done: number, phase?: string) => {
    // At most a few writes a second; the console polls.
    if (Date.now() - last < 250) return;
    last = Date.now();
    void sql`UPDATE operator_jobs SET done = ${done}, phase = ${phase ?? null}, updated_at = now() WHERE id = ${id} AND status = 'running'`
      .execute(db)
      .catch(() => undefined);
  };
  void (async () => {
    try {
      const detail = await work(progress);
      const done = typeof detail.done === 'number' ? detail.done : 0;
      await sql`UPDATE operator_jobs SET status = 'done', done = ${done}, phase = 'done', updated_at = now(), finished_at = now() WHERE id = ${id}`.execute(
        db,
      );
      await recordOperatorAction(db, deps.log, { operator, command, detail: { job: id, ...detail } });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      deps.log.error({ err, job: id }, `operator job ${command} failed`);
      await sql`UPDATE operator_jobs SET status = 'failed', error = ${message}, updated_at = now(), finished_at = now() WHERE id = ${id}`
        .execute(db)
        .catch(() => undefined);
      await recordOperatorAction(db, deps.log, {
        operator,
        command,
        detail: { job: id, error: message },
      }).catch(() => undefined);
    }
  })();
  return (await getJob(db, id))!;
}

async function lastPosition(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{
    p: number | string | null;
  }>`SELECT max(global_position) AS p FROM events`.execute(db);
  return Number(rows[0]?.p ?? 0);
}

/** Registers the console's stream routes of one service (`runService` does this for every service). */
export function registerStreamOps<DB extends KitTables>(app: HttpApp, deps: StreamOpsDeps<DB>): void {
  const calls = streamOpsCalls(deps.service);
  const db = deps.database.db as Kysely<any>;
  const operatorOf = async (request: FastifyRequest) => {
    const who = await deps.guard(request);
    return `${who.username} (console, user ${who.userId})`;
  };
  /** The audit event (ADR 0031) of an action done from the console: who, what, when. */
  const audit = async (
    request: FastifyRequest,
    action: string,
    subject: string,
    summary: string,
    detail: Record<string, unknown>,
  ) => {
    const who = await deps.guard(request);
    await recordOperatorActNow(
      deps.store,
      { sub: who.userId, username: who.username },
      { action, subject, summary, detail },
      metadataFrom(request, who.userId),
    ).catch((err: unknown) => deps.log.warn({ err, action }, 'operator audit not recorded'));
  };

  routeFor(app, calls.status, async (request) => {
    await operatorOf(request);
    await ensureJobsTable(db);
    const status = await serviceStatus({
      service: deps.service,
      db,
      bus: deps.bus,
      consumes: deps.consumes,
      durables: deps.consumers.map((c) => ({ context: c.context, durable: c.durable })),
    });
    const [jobs, position] = await Promise.all([recentJobs(db), lastPosition(db)]);
    return {
      service: status.service,
      streams: status.streams,
      consumers: status.consumers,
      outbox: status.outbox,
      deadLetters: status.deadLetters,
      scheduler: status.scheduler,
      lastRebuild: status.lastRebuild
        ? { operator: status.lastRebuild.operator, at: iso(status.lastRebuild.at) }
        : null,
      lastPosition: position,
      jobs,
    };
  });

  registerDeadLetterRoutes(app, calls, deps, operatorOf, audit);

  routeFor(app, calls.rebuild, async (request, reply) => {
    const operator = await operatorOf(request);
    const id = idempotentId(request, 'ops-rebuild');
    const total = await lastPosition(db);
    const job = await startJob(deps, id, 'rebuild-projections', operator, total, async (progress) => {
      const applied = await rebuildProjections(deps.store, deps.log, {
        onProgress: (p) => progress(p.applied, p.phase),
      });
      return { applied, done: applied };
    });
    await audit(
      request,
      'projections.rebuild',
      `service:${deps.service}`,
      `Started a rebuild of ${deps.service}'s projections`,
      { job: id },
    );
    return reply.code(202).send(job);
  });

  routeFor(app, calls.republish, async (request, reply) => {
    const operator = await operatorOf(request);
    const { from, to } = request.body;
    if (to !== undefined && to < from) throw badRequest('"to" must not be before "from".');
    const id = idempotentId(request, 'ops-republish');
    const last = await lastPosition(db);
    const total = Math.max(0, (to ?? last) - from);
    const job = await startJob(deps, id, 'republish', operator, total, async (progress) => {
      const published = await republishEvents(deps.store, deps.bus, { from, to }, deps.log, 500, (p) =>
        progress(Math.max(0, p.position - from), 'publish'),
      );
      return { from, to: to ?? null, published, done: total };
    });
    await audit(
      request,
      'events.republish',
      `service:${deps.service}`,
      `Republished ${deps.service}'s events after position ${from}${to === undefined ? '' : ` up to ${to}`}`,
      { job: id, from, to: to ?? null },
    );
    return reply.code(202).send(job);
  });

  routeFor(app, calls.job, async (request) => {
    await operatorOf(request);
    await ensureJobsTable(db);
    const job = await getJob(db, request.params.jobId);
    if (!job) throw notFound('No such job.');
    return job;
  });
}
