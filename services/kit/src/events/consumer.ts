import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Context, EventEnvelope } from '@ques/contracts';
import type { EventBus, PoisonMessage, Subscription } from '../bus/bus.js';
import type { Database } from '../db/database.js';

/** What a consumer's effect runs with: the transaction that also records the event as processed. */
export type ConsumerEffect<T> = (trx: Kysely<any>, envelope: EventEnvelope<T>) => Promise<void>;

/**
 * Runs `effect` at most once per (consumer, event id): the marker row and the effect commit together, so a
 * redelivery after a crash between commit and ack is recognised and skipped.
 * Returns true when the effect ran, false for a duplicate.
 */
export async function applyOnce<T>(
  database: Database,
  consumer: string,
  envelope: EventEnvelope<T>,
  effect: ConsumerEffect<T>,
): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const marked = await trx
      .insertInto('processed_events')
      .values({ consumer, event_id: envelope.id })
      .onConflict((oc) => oc.doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!marked) return false;
    await effect(trx, envelope);
    return true;
  });
}

export async function recordDeadLetter(database: Database, poison: PoisonMessage): Promise<void> {
  await database.db
    .insertInto('dead_letters')
    .values({
      consumer: poison.consumer,
      subject: poison.subject,
      event_id: poison.eventId,
      payload: poison.payload,
      error: poison.error,
      attempts: poison.attempts,
    })
    .execute();
}

export interface ConsumerDefinition {
  /** `<consumer-service>--<purpose>` */
  durable: string;
  context: Context;
  /** Event types (of `context`) → how each is handled. Data is validated with the schema before the effect. */
  handlers: Record<string, { schema: z.ZodType; effect: ConsumerEffect<any> }>;
  maxDeliver?: number;
  backoffMs?: number[];
}

/**
 * Subscribes an idempotent, schema-validating consumer. A message whose data fails its schema fails every time, so
 * after maxDeliver failures it is parked in the dead-letter table instead of blocking the stream. An effect that lost
 * its database connection has not failed: the bus retries it until the database is back, however long that takes.
 */
export async function startConsumer(
  bus: EventBus,
  database: Database,
  log: Logger,
  def: ConsumerDefinition,
): Promise<Subscription> {
  return bus.subscribe({
    durable: def.durable,
    context: def.context,
    subjects: Object.keys(def.handlers).map((type) => `ques.${def.context}.${type}`),
    maxDeliver: def.maxDeliver,
    backoffMs: def.backoffMs,
    onPoison: async (poison) => {
      log.error({ consumer: poison.consumer, eventId: poison.eventId, error: poison.error }, 'poison message parked');
      await recordDeadLetter(database, poison);
    },
    handler: async (envelope, delivery) => {
      const entry = def.handlers[envelope.type];
      if (!entry) return; // a type this consumer doesn't need (wildcard subscriptions)
      const data = entry.schema.parse(envelope.data);
      const applied = await applyOnce(database, def.durable, { ...envelope, data }, entry.effect);
      log.debug(
        { consumer: def.durable, eventId: envelope.id, type: envelope.type, correlationId: envelope.correlationId, applied, attempt: delivery.attempt },
        applied ? 'event applied' : 'duplicate event skipped',
      );
    },
  });
}
