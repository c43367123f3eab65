import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OperatorAuditEntry, ServiceName } from '@ques/contracts';
import type { ApiCall } from '@ques/contracts';
import type { OperatorAuditTables, KitTables } from '../db/schema.js';
import type { EventStore } from '../events/event-store.js';
import type { Projection } from '../events/projection.js';
import type { EventMetadata, RecordedEvent } from '../events/types.js';
import { requireOperator, type AccessClaims } from '../http/auth.js';
import { routeFor } from '../http/calls.js';
import type { HttpApp } from '../http/http-app.js';

/**
 * The operators' audit (issue 18, ADR 0031): every operator action is an `OperatorActed` event in the service that
 * carried it out — appended in the same transaction as the action itself, so an action is never without its record —
 * projected into `operator_audit` and listed in the console. The CLI's `operator_log` (ADR 0027) stays for shell use.
 */
export const OPERATOR_ACTED = 'OperatorActed'; // listed in the event store's KIT_PRIVATE_EVENTS: never published

export interface OperatorActedData {
  auditId: string;
  operatorId: string;
  operatorUsername: string;
  /** What was done, dotted: `archive.create`, `claim.approve`, `deadLetter.retry`, `operator.grant`… */
  action: string;
  /** What it was done to: `user:<id>`, `claim:<id>`, `deadLetter:<id>`… */
  subject: string;
  /** One line for people (no personal data beyond a username: the audit outlives accounts). */
  summary: string;
  detail: Record<string, unknown>;
  at: string;
}

/** Who acted: an operator's verified claims, or a server-side tool (the CLI, `OPERATOR_EMAILS`). */
export type OperatorActor = Pick<AccessClaims, 'sub' | 'username'>;

export interface OperatorAct {
  action: string;
  subject: string;
  summary: string;
  detail?: Record<string, unknown>;
}

/**
 * Records one operator action as an `OperatorActed` event in its own stream (`operator-action-<id>`), inside `trx`
 * — the transaction of the action (e.g. a command's `alongside`), so both commit or neither does.
 */
export async function recordOperatorAct<DB extends KitTables>(
  store: EventStore<DB>,
  trx: Kysely<DB>,
  operator: OperatorActor,
  act: OperatorAct,
  metadata: EventMetadata,
): Promise<void> {
  const auditId = randomUUID();
  const data: OperatorActedData = {
    auditId,
    operatorId: operator.sub,
    operatorUsername: operator.username,
    action: act.action,
    subject: act.subject,
    summary: act.summary,
    detail: act.detail ?? {},
    at: new Date().toISOString(),
  };
  await store.appendWithin(trx, {
    streamId: `operator-action-${auditId}`,
    expectedVersion: 0,
    events: [{ type: OPERATOR_ACTED, data }],
    metadata: { ...metadata, actor: operator.sub },
  });
}

/** Records an operator action in a transaction of its own (for actions whose effect is not an event of this store). */
export function recordOperatorActNow<DB extends KitTables>(
  store: EventStore<DB>,
  operator: OperatorActor,
  act: OperatorAct,
  metadata: EventMetadata,
): Promise<void> {
  return store.db.transaction().execute((trx) => recordOperatorAct(store, trx, operator, act, metadata));
}

const auditView = <DB>(db: Kysely<DB>) => db as unknown as Kysely<OperatorAuditTables>;

/** The `operator_audit` read model; list it in the service's `projections` (with `kitOperatorAuditMigration`). */
export const operatorAuditProjection: Projection<any> = {
  name: 'operator_audit',
  tables: ['operator_audit'],
  // One row per OperatorActed event, each in a stream of its own (ADR 0041).
  streamLocal: true,
  async apply(trx: Kysely<any>, event: RecordedEvent) {
    if (event.type !== OPERATOR_ACTED) return;
    const d = event.data as OperatorActedData;
    await auditView(trx)
      .insertInto('operator_audit')
      .values({
        id: d.auditId,
        operator_id: d.operatorId,
        operator_username: d.operatorUsername,
        action: d.action,
        subject: d.subject,
        summary: d.summary,
        detail: JSON.stringify(d.detail),
        at: d.at,
        global_position: event.globalPosition,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  },
};

/** The latest operator actions recorded by this service, newest first. */
export async function listOperatorActs(db: Kysely<any>, service: ServiceName, limit = 50): Promise<OperatorAuditEntry[]> {
  const rows = await auditView(db).selectFrom('operator_audit').selectAll().orderBy('global_position', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    service,
    operatorId: r.operator_id,
    operatorUsername: r.operator_username,
    action: r.action,
    subject: r.subject,
    summary: r.summary,
    at: new Date(r.at).toISOString(),
  }));
}

/** Registers the service's audit list call (`opsApi.audit<Service>`), behind `requireOperator`. */
export function registerOperatorAuditRoute(
  app: HttpApp,
  db: Kysely<any>,
  call: ApiCall<{ querystring: any; response: { 200: any } }>,
): void {
  routeFor(app, call, async (request) => {
    await requireOperator(request);
    const { limit } = request.query as { limit: number };
    return { entries: await listOperatorActs(db, call.service, limit) };
  });
}
