import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { eventHandlers, handlerProjection } from './projection.js';
import type { RecordedEvent } from './types.js';

type Ev =
  | { type: 'Opened'; data: { id: string; name: string } }
  | { type: 'Renamed'; data: { id: string; name: string } }
  | { type: 'Noted'; data: { id: string } };

const trx = {} as Kysely<unknown>;
let position = 0;
const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  globalPosition: ++position,
  eventId: `e${position}`,
  streamId: `s-${String(data.id)}`,
  streamVersion: position,
  type,
  data,
  metadata: { correlationId: 'c', causationId: null, actor: null },
  recordedAt: new Date(0),
});

function fixture() {
  const writes: string[] = [];
  const projection = handlerProjection<unknown, Ev>({
    name: 'things',
    tables: ['things'],
    handlers: {
      Opened: async (_trx, d) => writes.push(`open ${d.id} ${d.name}`),
      Renamed: async (_trx, d, e) => writes.push(`rename ${d.id} ${d.name} v${e.streamVersion}`),
    },
    batch: {
      type: 'Opened',
      key: (d) => d.id,
      row: (d) => ({ id: d.id, name: d.name }),
      insert: async (_trx, rows) => void writes.push(`insert ${rows.map((r) => String(r.id)).join(',')}`),
    },
  });
  return { writes, projection };
}

describe('a projection built from its handlers (issue 11: no hand-kept event list)', () => {
  it('reads exactly the event types it has a handler for', () => {
    const { relevant } = eventHandlers<unknown, Ev>({
      Opened: async () => undefined,
      Renamed: async () => undefined,
    });
    expect(relevant({ type: 'Opened' })).toBe(true);
    expect(relevant({ type: 'Renamed' })).toBe(true);
    expect(relevant({ type: 'Noted' })).toBe(false);
    // An inherited name is not a handler.
    expect(relevant({ type: 'toString' })).toBe(false);
  });

  it('applies an event with its handler and skips the others', async () => {
    const { writes, projection } = fixture();
    await projection.apply(trx, recorded('Opened', { id: 'a', name: 'A' }));
    await projection.apply(trx, recorded('Noted', { id: 'a' }));
    await projection.apply(trx, recorded('Elsewhere', { id: 'a' }));
    expect(writes).toEqual(['open a A']);
  });

  it('rebuilds runs of the batch type as one insert and the rest in order, as apply would leave them', async () => {
    const { writes, projection } = fixture();
    position = 0;
    await projection.applyBatch!(trx, [
      recorded('Opened', { id: 'a', name: 'A' }),
      recorded('Noted', { id: 'a' }),
      recorded('Opened', { id: 'b', name: 'B' }),
      recorded('Renamed', { id: 'a', name: 'A2' }),
      recorded('Opened', { id: 'c', name: 'C' }),
    ]);
    expect(writes).toEqual(['insert a,b', 'rename a A2 v4', 'insert c']);
  });
});
