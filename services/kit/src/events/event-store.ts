import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type pg from 'pg';
import { subjectFor, type Context, type EventEnvelope } from '@ques/contracts';
import type { Database } from '../db/database.js';
import { isUniqueViolation } from '../db/database.js';
import { notifyReadModel, readModelChanges } from '../db/read-model-changes.js';
import { commitOrigin, wakeAtCommit } from '../db/commit-wakes.js';
import { kitView, type EventsTable, type KitTables } from '../db/schema.js';
import { ConcurrencyError } from '../errors.js';
import type { EventCipher } from './personal-data.js';
import {
  systemClock,
  type Clock,
  type Decider,
  type DomainEvent,
  type EventMetadata,
  type IntegrationMapper,
  type RecordedEvent,
} from './types.js';
import type { Projection } from './projection.js';

export interface AppendInput {
  streamId: string;
  /** Version the caller's decision was based on; 0 means the stream must not exist yet. */
  expectedVersion: number;
  events: DomainEvent[];
  metadata: EventMetadata;
  /**
   * `expectedVersion` is the stream's last version as read inside this same transaction (the command handler's load):
   * it cannot be stale-high, and a writer that appended since fails this append on the unique (stream, version)
   * index, so the store does not read the version again (one round trip less on every command, ADR 0037).
   */
  versionReadInTransaction?: boolean;
}

type EventRow = Selectable<EventsTable>;

/** Every column as the text Postgres sent (a rebuild's read parses only what it needs, ADR 0041). */
const AS_TEXT = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

export const outboxChannel = (schema: string) => `outbox_${schema}`;

/** Event types the kit itself records in every service's store (`OperatorActed`, ADR 0031): never published. */
export const KIT_PRIVATE_EVENTS: ReadonlySet<string> = new Set(['OperatorActed']);

function toRecorded(row: EventRow): RecordedEvent {
  return {
    globalPosition: Number(row.global_position),
    eventId: row.event_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: new Date(row.recorded_at),
  };
}

export function toEnvelope(event: RecordedEvent, integration: { type: string; version: number; data: unknown }): EventEnvelope {
  return {
    id: event.eventId,
    type: integration.type,
    version: integration.version,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    occurredAt: event.recordedAt.toISOString(),
    correlationId: event.metadata.correlationId,
    causationId: event.metadata.causationId,
    data: integration.data,
  };
}

export interface EventStoreOptions<DB extends KitTables = KitTables> {
  database: Database<DB>;
  context: Context;
  projections: NoInfer<Projection<DB>>[];
  toIntegration: IntegrationMapper;
  clock?: Clock;
  newId?: () => string;
  /** Seals personal fields before they are stored (crypto-shredding, ADR 0010). */
  cipher?: NoInfer<EventCipher<DB>>;
}

/**
 * Append-only event store in the service's schema. An append writes the events, updates the inline projections and
 * queues integration events in the outbox, all in one transaction, then NOTIFYs the relay.
 */
export class EventStore<DB extends KitTables = KitTables> {
  readonly database: Database<DB>;
  readonly context: Context;
  readonly projections: Projection<DB>[];
  readonly toIntegration: IntegrationMapper;
  private readonly clock: Clock;
  private readonly newId: () => string;
  readonly cipher: EventCipher<DB> | undefined;

  constructor(opts: EventStoreOptions<DB>) {
    this.database = opts.database;
    this.context = opts.context;
    this.projections = opts.projections;
    this.toIntegration = opts.toIntegration;
    this.clock = opts.clock ?? systemClock;
    this.newId = opts.newId ?? randomUUID;
    this.cipher = opts.cipher;
  }

  get db(): Kysely<DB> {
    return this.database.db;
  }

  append(input: AppendInput): Promise<RecordedEvent[]> {
    return this.db.transaction().execute((trx) => this.appendWithin(trx, input));
  }

  /** Appends inside the caller's transaction (so the caller can add its own writes, e.g. a scheduled job). */
  async appendWithin(trx: Kysely<DB>, input: AppendInput): Promise<RecordedEvent[]> {
    if (input.events.length === 0) return [];
    const { streamId, expectedVersion } = input;
    if (expectedVersion > 0 && !input.versionReadInTransaction) {
      // A stale-high expectation would leave a gap in the versions; only equality is a valid base.
      const current = await kitView(trx)
        .selectFrom('events')
        .select((eb) => eb.fn.max('stream_version').as('version'))
        .where('stream_id', '=', streamId)
        .executeTakeFirst();
      if (Number(current?.version ?? 0) !== expectedVersion) throw new ConcurrencyError(streamId, expectedVersion);
    }
    const recordedAt = this.clock();
    const metadataJson = JSON.stringify(input.metadata);
    const rows = [];
    // The events as they will be recorded (their global positions come back from the insert): the outbox's envelopes
    // are built from them before the insert, so the outbox rows go in the events' statement (ADR 0049).
    const recorded: RecordedEvent[] = [];
    for (const [i, event] of input.events.entries()) {
      const stored = this.cipher ? await this.cipher.seal(trx, { streamId, type: event.type, data: event.data }) : event.data;
      const eventId = this.newId();
      rows.push({
        event_id: eventId,
        stream_id: streamId,
        stream_version: expectedVersion + i + 1,
        type: event.type,
        data: JSON.stringify(stored),
        metadata: metadataJson,
        recorded_at: recordedAt,
      });
      recorded.push({
        globalPosition: 0,
        eventId,
        streamId,
        streamVersion: expectedVersion + i + 1,
        type: event.type,
        // Projections and the outbox see the plain data; only the stored copy is sealed.
        data: event.data,
        metadata: JSON.parse(metadataJson) as EventMetadata,
        recordedAt: new Date(recordedAt.getTime()),
      });
    }
    const outboxRows = this.outboxRowsOf(recorded);
    const changesReadModel = this.projections.length > 0;
    const channel = outboxChannel(this.database.schema);
    // Only the positions come back: the rest of each row is what was just sent (ADR 0049: `returning *` had pg parse
    // every event's data, sealed and all, and its metadata again).
    let inserted: { global_position: string | number; stream_version: number }[];
    try {
      const insert = kitView(trx).insertInto('events').values(rows).returning(['global_position', 'stream_version']);
      if (!changesReadModel && outboxRows.length === 0) {
        inserted = await insert.execute();
      } else {
        // One statement (one round trip): the events, their outbox rows, and the NOTIFYs (delivered at commit) that
        // tell other instances the read model changed (ADR 0040) and wake other processes' relays (ADR 0037).
        const queue = outboxRows.length > 0 ? kitView(trx).insertInto('outbox').values(outboxRows) : null;
        const notified = changesReadModel ? sql`, (SELECT ${notifyReadModel(this.database)}) AS notified` : sql``;
        const woken = queue ? sql`, (SELECT pg_notify(${channel}, ${commitOrigin})) AS woken` : sql``;
        inserted = (
          await sql<{ global_position: string; stream_version: number }>`WITH inserted AS (${insert})${queue ? sql`, queued AS (${queue})` : sql``} SELECT inserted.* FROM inserted${notified}${woken}`.execute(trx)
        ).rows;
      }
    } catch (error) {
      if (isUniqueViolation(error, 'events_stream_version_unique')) throw new ConcurrencyError(streamId, expectedVersion);
      throw error;
    }
    const positions = new Map(inserted.map((row) => [row.stream_version, Number(row.global_position)]));
    for (const event of recorded) event.globalPosition = positions.get(event.streamVersion)!;
    for (const event of recorded) {
      for (const projection of this.projections) await projection.apply(trx, event);
    }
    // This process's read caches drop their entries once the append commits (read-your-writes).
    if (changesReadModel) await readModelChanges(this.database).changedWithin(trx);
    // This process's relay is woken by the commit itself (ADR 0046); the NOTIFY above wakes the others'.
    if (outboxRows.length > 0) await wakeAtCommit(trx, channel);
    return recorded;
  }

  /** The outbox rows of `recorded`: its integration events, as envelopes. */
  private outboxRowsOf(recorded: RecordedEvent[]): { event_id: string; subject: string; envelope: string }[] {
    return recorded.flatMap((event) => {
      // The kit's own events (an operator's audit record) stay in the service: they are never integration events.
      if (KIT_PRIVATE_EVENTS.has(event.type)) return [];
      const integration = this.toIntegration(event);
      if (!integration) return [];
      const envelope = toEnvelope(event, integration);
      return [{ event_id: event.eventId, subject: subjectFor(this.context, envelope.type), envelope: JSON.stringify(envelope) }];
    });
  }

  async readStream(streamId: string, executor: Kysely<DB> = this.db): Promise<RecordedEvent[]> {
    const rows = await kitView(executor)
      .selectFrom('events')
      .selectAll()
      .where('stream_id', '=', streamId)
      .orderBy('stream_version')
      .execute();
    return this.opened(rows.map(toRecorded), executor);
  }

  /** Events after `afterPosition` in global order (for replay and republish). */
  async readAll(afterPosition: number, limit: number, executor: Kysely<DB> = this.db): Promise<RecordedEvent[]> {
    const rows = await kitView(executor)
      .selectFrom('events')
      .selectAll()
      .where('global_position', '>', afterPosition)
      .orderBy('global_position')
      .limit(limit)
      .execute();
    return this.opened(rows.map(toRecorded), executor);
  }

  /**
   * `readAll` on a raw connection, for a rebuild's load (ADR 0041): one array per row from `pg` (no row object), the
   * columns as text, `recorded_at` as its epoch milliseconds (no date-string parse), each event built once and opened
   * in place. The same events as `readAll`.
   */
  async readAllFrom(client: pg.ClientBase, afterPosition: number, limit: number): Promise<RecordedEvent[]> {
    const { rows } = await client.query<string[]>({
      text: `SELECT global_position, event_id, stream_id, stream_version, type, data, metadata,
          floor(extract(epoch FROM recorded_at) * 1000)::int8
        FROM "${this.database.schema}".events WHERE global_position > $1 ORDER BY global_position LIMIT $2`,
      values: [afterPosition, limit],
      rowMode: 'array',
      types: AS_TEXT,
    });
    const events: RecordedEvent[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i += 1) {
      const r = rows[i]!;
      events[i] = {
        globalPosition: Number(r[0]),
        eventId: r[1]!,
        streamId: r[2]!,
        streamVersion: Number(r[3]),
        type: r[4]!,
        data: JSON.parse(r[5]!) as unknown,
        metadata: JSON.parse(r[6]!) as RecordedEvent['metadata'],
        recordedAt: new Date(Number(r[7])),
      };
    }
    return this.opened(events, this.db);
  }

  /** The events at exactly these global positions (the gaps a rebuild saw, once their transactions commit). */
  async readPositions(positions: number[], executor: Kysely<DB> = this.db): Promise<RecordedEvent[]> {
    if (positions.length === 0) return [];
    const rows = await kitView(executor)
      .selectFrom('events')
      .selectAll()
      .where('global_position', 'in', positions)
      .orderBy('global_position')
      .execute();
    return this.opened(rows.map(toRecorded), executor);
  }

  private async opened(events: RecordedEvent[], executor: Kysely<DB>): Promise<RecordedEvent[]> {
    if (!this.cipher || events.length === 0) return events;
    // The events and their data were just built from the rows read: they are opened in place (no copy per event).
    const data = await this.cipher.open(executor, events, { inPlace: true });
    for (let i = 0; i < events.length; i += 1) events[i]!.data = data[i];
    return events;
  }

  /** Loads a stream and folds it with the decider. */
  async load<S, E extends DomainEvent>(
    streamId: string,
    decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>,
    executor: Kysely<DB> = this.db,
  ): Promise<{ state: S; version: number }> {
    const events = await this.readStream(streamId, executor);
    let state = decider.initialState();
    for (const event of events) state = decider.evolve(state, event as unknown as E);
    return { state, version: events.length === 0 ? 0 : events[events.length - 1]!.streamVersion };
  }
}
