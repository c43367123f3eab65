import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { subjectFor, type Context, type EventEnvelope } from '@ques/contracts';
import type { Database } from '../db/database.js';
import { kitView, type Executor, type KitTables } from '../db/schema.js';
import { commitOrigin, wakeAtCommit } from '../db/commit-wakes.js';
import { outboxChannel } from './event-store.js';

export interface OperationalEvent {
  context: Context;
  type: string;
  version: number;
  /** What the event is about, e.g. `sessions-<userId>`. It has no stored stream: streamVersion is always 1. */
  streamId: string;
  data: unknown;
  occurredAt: Date;
  correlationId: string;
  causationId?: string | null;
}

/**
 * Queues an integration event that records operational state rather than a stored domain event (identity's sessions
 * are plain tables, ADR 0017): it goes through the same outbox as domain events, in the caller's transaction, so it
 * is published if and only if the change it announces commits. Consumers must not order such events by
 * streamVersion.
 */
export async function enqueueOperationalEvent<DB extends KitTables>(
  trx: Executor<DB>,
  database: Pick<Database, 'schema'>,
  event: OperationalEvent,
): Promise<EventEnvelope> {
  const envelope: EventEnvelope = {
    id: randomUUID(),
    type: event.type,
    version: event.version,
    streamId: event.streamId,
    streamVersion: 1,
    occurredAt: event.occurredAt.toISOString(),
    correlationId: event.correlationId,
    causationId: event.causationId ?? null,
    data: event.data,
  };
  await kitView(trx)
    .insertInto('outbox')
    .values({
      event_id: envelope.id,
      subject: subjectFor(event.context, event.type),
      envelope: JSON.stringify(envelope),
    })
    .execute();
  await sql`SELECT pg_notify(${outboxChannel(database.schema)}, ${commitOrigin})`.execute(trx);
  await wakeAtCommit(trx, outboxChannel(database.schema));
  return envelope;
}
