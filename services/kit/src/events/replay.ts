import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { EventBus, OutgoingMessage } from '../bus/bus.js';
import { subjectFor } from '@ques/contracts';
import type { KitTables } from '../db/schema.js';
import { notifyReadModel, readModelChanges } from '../db/read-model-changes.js';
import { KIT_PRIVATE_EVENTS, toEnvelope, type EventStore } from './event-store.js';

import { applyProjections } from './apply-projections.js';
import { OnlineRebuild } from './online-rebuild.js';

export interface RebuildProgress {
  applied: number;
  position: number;
  /** The store's last position when the rebuild began (events after it are caught up too). */
  lastPosition: number;
  eventsPerSec: number;
  /** Seconds left at the current rate; null until there is a rate. */
  etaSec: number | null;
  phase: 'load' | 'catch-up' | 'swap';
}

export interface RebuildOptions {
  /** Events per read and per apply transaction. Default 5,000. */
  batchSize?: number;
  onProgress?: (progress: RebuildProgress) => void;
  /** How long the swap may wait for the live tables' locks before it catches up again and retries. Default 2 s. */
  lockTimeoutMs?: number;
  /** Connections applying the stream-local projections side by side during the load (ADR 0041). Default 2. */
  applyLanes?: number;
}

/**
 * Rebuilds every projection of the store from its events (ADR 0026).
 *
 * On Postgres the rebuild is online: the projections' tables are rebuilt as shadow copies in the schema
 * `<schema>__rebuild` (reading the next batch of events while the last one is applied), the events that arrive
 * meanwhile are caught up, and a short transaction locks the live tables, applies the last few events and swaps the
 * shadow tables in. Reads and writes go on against the live tables throughout; only the swap holds them for the few
 * milliseconds it lasts. On the embedded PGlite (one connection anyway) it is one transaction, as before.
 *
 * The third argument may be a batch size (the old signature) or options.
 */
export async function rebuildProjections<DB extends KitTables>(
  store: EventStore<DB>,
  log: Logger,
  options: number | RebuildOptions = {},
): Promise<number> {
  const opts: RebuildOptions = typeof options === 'number' ? { batchSize: options } : options;
  if (store.database.kind === 'embedded') return rebuildInOneTransaction(store, log, opts.batchSize ?? 5000);
  return new OnlineRebuild(store, log, opts).run();
}

async function rebuildInOneTransaction<DB extends KitTables>(
  store: EventStore<DB>,
  log: Logger,
  batchSize: number,
): Promise<number> {
  const tables = [...new Set(store.projections.flatMap((p) => p.tables))];
  return store.db.transaction().execute(async (trx) => {
    if (tables.length > 0) await sql`TRUNCATE ${sql.join(tables.map((t) => sql.table(t)))}`.execute(trx);
    let after = 0;
    let applied = 0;
    for (;;) {
      const events = await store.readAll(after, batchSize, trx);
      if (events.length === 0) break;
      await applyProjections(store, trx, events);
      applied += events.length;
      after = events[events.length - 1]!.globalPosition;
      log.info({ applied, position: after }, 'rebuilding projections');
    }
    // Read caches drop what they hold of the old tables (ADR 0040).
    await sql`SELECT ${notifyReadModel(store.database)}`.execute(trx);
    await readModelChanges(store.database).changedWithin(trx);
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
  /** Called after each batch (the operator console's live progress). */
  onProgress?: (progress: { published: number; position: number }) => void,
): Promise<number> {
  const runId = Date.now().toString(36);
  let after = range.from;
  let published = 0;
  for (;;) {
    const events = (await store.readAll(after, batchSize)).filter(
      (e) => range.to === undefined || e.globalPosition <= range.to,
    );
    if (events.length === 0) break;
    const messages: OutgoingMessage[] = events.flatMap((event) => {
      if (KIT_PRIVATE_EVENTS.has(event.type)) return [];
      const integration = store.toIntegration(event);
      if (!integration) return [];
      return [
        {
          subject: subjectFor(store.context, integration.type),
          envelope: toEnvelope(event, integration),
          msgId: `${event.eventId}:replay:${runId}`,
        },
      ];
    });
    if (messages.length > 0) await bus.publish(messages);
    published += messages.length;
    after = events[events.length - 1]!.globalPosition;
    log.info({ published, position: after }, 'republishing events');
    onProgress?.({ published, position: after });
  }
  return published;
}
