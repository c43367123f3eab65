import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { EventBus, OutgoingMessage } from '../bus/bus.js';
import { subjectFor } from '@ques/contracts';
import type { KitTables } from '../db/schema.js';
import { toEnvelope, type EventStore } from './event-store.js';

/**
 * Rebuilds every projection of the store from its events, in global order, in one transaction: readers see the old
 * read model until the new one commits.
 */
export async function rebuildProjections<DB extends KitTables>(store: EventStore<DB>, log: Logger, batchSize = 5000): Promise<number> {
  const tables = [...new Set(store.projections.flatMap((p) => p.tables))];
  return store.db.transaction().execute(async (trx) => {
    if (tables.length > 0) await sql`TRUNCATE ${sql.join(tables.map((t) => sql.table(t)))}`.execute(trx);
    let after = 0;
    let applied = 0;
    for (;;) {
      const events = await store.readAll(after, batchSize, trx);
      if (events.length === 0) break;
      const perEvent = store.projections.filter((p) => !p.applyBatch);
      if (perEvent.length === store.projections.length) {
        for (const event of events) for (const projection of store.projections) await projection.apply(trx, event);
      } else {
        // Projections run one after another over the batch (each sees the rows the earlier ones wrote).
        for (const projection of store.projections) {
          if (projection.applyBatch) await projection.applyBatch(trx, events);
          else for (const event of events) await projection.apply(trx, event);
        }
      }
      applied += events.length;
      after = events[events.length - 1]!.globalPosition;
      log.info({ applied, position: after }, 'rebuilding projections');
    }
    return applied;
  });
}

/**
 * Re-publishes the integration events of positions (from, to] so downstream read models can be rebuilt. Envelopes keep
 * their event ids (consumers stay idempotent); the transport msgID gets a run suffix so JetStream's duplicate window
 * does not swallow a deliberate re-send.
 */
export async function republishEvents<DB extends KitTables>(
  store: EventStore<DB>,
  bus: EventBus,
  range: { from: number; to?: number },
  log: Logger,
  batchSize = 1000,
): Promise<number> {
  const runId = Date.now().toString(36);
  let after = range.from;
  let published = 0;
  for (;;) {
    const events = (await store.readAll(after, batchSize)).filter((e) => range.to === undefined || e.globalPosition <= range.to);
    if (events.length === 0) break;
    const messages: OutgoingMessage[] = events.flatMap((event) => {
      const integration = store.toIntegration(event);
      if (!integration) return [];
      return [{ subject: subjectFor(store.context, integration.type), envelope: toEnvelope(event, integration), msgId: `${event.eventId}:replay:${runId}` }];
    });
    if (messages.length > 0) await bus.publish(messages);
    published += messages.length;
    after = events[events.length - 1]!.globalPosition;
    log.info({ published, position: after }, 'republishing events');
  }
  return published;
}
