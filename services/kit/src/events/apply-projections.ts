import type { Kysely } from 'kysely';
import type { KitTables } from '../db/schema.js';
import type { EventStore } from './event-store.js';
import { insertingBulkWriter, type BulkWriter, type Projection } from './projection.js';
import type { RecordedEvent } from './types.js';

/** Applies `events` to `projections` in `trx`: per event, or per batch for projections that take one (ADR 0041). */
export async function applyProjections<DB extends KitTables>(
  store: EventStore<DB>,
  trx: Kysely<DB>,
  events: RecordedEvent[],
  bulk: BulkWriter = insertingBulkWriter(trx),
  projections: Projection<DB>[] = store.projections,
): Promise<void> {
  if (events.length === 0) return;
  const perEvent = projections.filter((p) => !p.applyBatch);
  if (perEvent.length === projections.length) {
    for (const event of events) for (const projection of projections) await projection.apply(trx, event);
    return;
  }
  // Projections run one after another over the batch (each sees the rows the earlier ones wrote).
  for (const projection of projections) {
    if (projection.applyBatch) await projection.applyBatch(trx, events, bulk);
    else for (const event of events) await projection.apply(trx, event);
  }
}
