import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Context, EventEnvelope } from '@ques/contracts';
import type { EventBus, PoisonMessage, Subscription } from '../bus/bus.js';
import type { Database } from '../db/database.js';
import { notifyReadModel, readModelChanges } from '../db/read-model-changes.js';
import { kitView, type KitTables } from '../db/schema.js';
import type { CommandHandler } from './command-handler.js';
import type { DomainEvent, EventMetadata } from './types.js';

/** What a consumer's effect runs with: the transaction that also records the event as processed. */
export type ConsumerEffect<T, DB = KitTables> = (trx: Kysely<DB>, envelope: EventEnvelope<T>) => Promise<void>;

/**
 * Runs `effect` at most once per (consumer, event id): the marker row and the effect commit together, so a
 * redelivery after a crash between commit and ack is recognised and skipped.
 * Returns true when the effect ran, false for a duplicate.
 */
export async function applyOnce<T, DB extends KitTables>(
  database: Database<DB>,
  consumer: string,
  envelope: EventEnvelope<T>,
  effect: ConsumerEffect<T, DB>,
): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const mark = kitView(trx)
      .insertInto('processed_events')
      .values({ consumer, event_id: envelope.id })
      .onConflict((oc) => oc.doNothing())
      .returning('event_id');
    // An effect writes the service's local copies (its read model): the marker's insert also tells other instances,
    // only when the event is new (ADR 0040).
    const marked = await sql`WITH marked AS (${mark}) SELECT ${notifyReadModel(database)} FROM marked`.execute(trx);
    if (marked.rows.length === 0) return false;
    await effect(trx, envelope);
    await readModelChanges(database).changedWithin(trx);
    return true;
  });
}

export async function recordDeadLetter<DB extends KitTables>(database: Database<DB>, poison: PoisonMessage): Promise<void> {
  await kitView(database.db)
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

export interface ConsumerDefinition<DB = KitTables> {
  /** `<consumer-service>--<purpose>` */
  durable: string;
  context: Context;
  /** Event types (of `context`) → how each is handled. Data is validated with the schema before the effect. */
  handlers: Record<string, { schema: z.ZodType; effect: ConsumerEffect<any, DB> }>;
  maxDeliver?: number;
  backoffMs?: number[];
  /** Messages of different event streams handled at once (see SubscriptionSpec.concurrency). Default 1. */
  concurrency?: number;
}

/**
 * Subscribes an idempotent, schema-validating consumer. A message whose data fails its schema fails every time, so
 * after maxDeliver failures it is parked in the dead-letter table instead of blocking the stream. An effect that lost
 * its database connection has not failed: the bus retries it until the database is back, however long that takes.
 */
export async function startConsumer<DB extends KitTables>(
  bus: EventBus,
  database: Database<DB>,
  log: Logger,
  def: ConsumerDefinition<DB>,
): Promise<Subscription> {
  return bus.subscribe({
    durable: def.durable,
    context: def.context,
    subjects: Object.keys(def.handlers).map((type) => `ques.${def.context}.${type}`),
    maxDeliver: def.maxDeliver,
    backoffMs: def.backoffMs,
    concurrency: def.concurrency,
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

/** Metadata for what a consumer records because of `envelope`: same correlation, caused by that event, no actor. */
export function causedBy(envelope: Pick<EventEnvelope, 'id' | 'correlationId'>): EventMetadata {
  return { correlationId: envelope.correlationId, causationId: envelope.id, actor: null };
}

/**
 * A consumer handler that turns each event into one command, run in the consumer's idempotency transaction and
 * caused by the event: `toCommand` says on which aggregate and what (null: nothing to do for this event).
 */
export function eventToCommand<Schema extends z.ZodType, C, E extends DomainEvent, S, DB extends KitTables>(
  schema: Schema,
  commands: CommandHandler<C, E, S, DB>,
  // NoInfer: the command's type comes from the handler, so the literal types of `toCommand`'s answer are kept.
  toCommand: NoInfer<(data: z.infer<Schema>, envelope: EventEnvelope<z.infer<Schema>>) => { id: string; command: C } | null>,
): { schema: Schema; effect: ConsumerEffect<z.infer<Schema>, DB> } {
  return {
    schema,
    effect: async (trx, envelope) => {
      const decided = toCommand(envelope.data, envelope);
      if (decided) await commands.handle(decided.id, decided.command, causedBy(envelope), { transaction: trx });
    },
  };
}

/**
 * A consumer's local copy of another context's entity (questions' recipients, payments' users): inserts the row, or
 * updates it from an event newer than the one it reflects (`version` = the source stream's version) unless it is a
 * tombstone (`deleted`). Late and redelivered events leave it as it is.
 */
export async function upsertLocalCopy<DB>(
  trx: Kysely<DB>,
  table: keyof DB & string,
  key: string,
  row: Record<string, unknown> & { version: number; deleted: boolean },
): Promise<void> {
  // One table of the service's own, named by the caller; Kysely cannot type a table chosen at run time.
  const db = trx as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const name: string = table;
  const updated = Object.keys(row).filter((column) => column !== key && column !== 'deleted');
  await db
    .insertInto(name)
    .values(row)
    .onConflict((oc) =>
      oc
        .column(key)
        .doUpdateSet(Object.fromEntries(updated.map((column) => [column, sql.ref(`excluded.${column}`)])))
        .where(`${name}.version`, '<', row.version)
        .where(`${name}.deleted`, '=', false),
    )
    .execute();
}
