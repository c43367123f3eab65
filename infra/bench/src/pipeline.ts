/**
 * `npm run bench -w @ques/bench -- pipeline` (also part of `npm run bench`): the event pipeline's throughput bars.
 * - Projection rebuild (the replay tool) of the questions read model from BENCH_EVENTS events (default 200,000;
 *   the bar speaks of 1M — set BENCH_EVENTS=1000000 on a machine with the time), against a raw keyset read of the
 *   same events with `pg` in the same run.
 * - Outbox → JetStream relay: BENCH_OUTBOX rows (default 50,000) published by one relay.
 * Real events: the first 1,000 are appended through the event store (personal fields sealed), then cloned in SQL
 * with fresh ids.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { questionsService, type QuestionsDB } from '@ques/questions';
import { connectPostgres, createLogger, EventStore, migrate, NatsEventBus, OutboxRelay, rebuildProjections } from '@ques/kit';
import { createTestDatabase, deleteNamespaceStreams, natsTestUrl, uniqueNamespace } from '@ques/kit/testing';
import { measureCpu, type CpuReading } from './cpu-account.js';
import { prepareWriteFloor } from './write-floor.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000); // npm run bench:pipeline: 1,000,000
const OUTBOX = Number(process.env.BENCH_OUTBOX ?? 50_000);
const log = createLogger('bench-pipeline', 'silent');

export interface PipelineResult {
  events: number;
  rawReadPerSec: number;
  rebuildPerSec: number;
  /** CPU per event, µs (ADR 0050): the rebuild's, and the least any rebuild pays here (null without /proc). */
  cpu: RebuildCpu;
  outbox: number;
  relayPerSec: number | null;
}

export interface RebuildCpu {
  /** The rebuild: this process (main thread and decrypt worker) and the database's backends. */
  rebuild: { nodeUs: number; postgresUs: number | null };
  /**
   * The floor: the events read in the same keyset batches as text (Postgres reading them; Node doing nothing but
   * `JSON.parse` of each event's data and metadata and the vault's open of its sealed personal data), plus Postgres
   * writing the finished rows by COPY into the rebuild's shadow shape with its indexes, with no Node work at all.
   * Folding the events and encoding the rows are not in it: any rebuild of these read models costs at least this.
   */
  floor: { readNodeUs: number; readPostgresUs: number | null; writePostgresUs: number | null; totalUs: number | null };
  /** Cores, and the events/s the floor allows if every core did nothing else. */
  cores: number;
  ceilingPerSec: number | null;
}

/** Every column as its text (no type parsing): the floor's read. */
const AS_TEXT = { getTypeParser: () => (value: string) => value };

const perEvent = (ms: number, events: number) => Math.round((ms * 10_000) / events) / 10;

function rebuildCpu(events: number, rebuild: CpuReading, read: CpuReading, write: CpuReading): RebuildCpu {
  const readPostgresUs = read.postgresMs === null ? null : perEvent(read.postgresMs, events);
  const writePostgresUs = write.postgresMs === null ? null : perEvent(write.postgresMs, events);
  const readNodeUs = perEvent(read.nodeMs, events);
  const totalUs = readPostgresUs === null || writePostgresUs === null ? null : Math.round((readNodeUs + readPostgresUs + writePostgresUs) * 10) / 10;
  const cores = availableParallelism();
  return {
    rebuild: { nodeUs: perEvent(rebuild.nodeMs, events), postgresUs: rebuild.postgresMs === null ? null : perEvent(rebuild.postgresMs, events) },
    floor: { readNodeUs, readPostgresUs, writePostgresUs, totalUs },
    cores,
    ceilingPerSec: totalUs ? Math.round((cores * 1e6) / totalUs) : null,
  };
}

export async function runPipeline(): Promise<PipelineResult> {
  const testDb = await createTestDatabase();
  const databaseName = new URL(testDb.url).pathname.slice(1);
  const database = connectPostgres<QuestionsDB>({ connectionString: testDb.url, schema: 'questions' });
  const raw = new pg.Client({ connectionString: testDb.url });
  await raw.connect();
  try {
    await migrate(database, questionsService.migrations);
    const store = new EventStore({
      database,
      context: 'questions',
      projections: questionsService.projections,
      toIntegration: questionsService.toIntegration,
      cipher: questionsService.cipher,
    });
    const owners = Array.from({ length: 50 }, (_, i) => ({ userId: randomUUID(), username: `owner-${i}`, name: `Owner ${i}`, email: `owner${i}@example.com` }));
    for (let i = 0; i < 1_000; i += 1) {
      const questionId = randomUUID();
      await store.append({
        streamId: `question-${questionId}`,
        expectedVersion: 0,
        metadata: { correlationId: 'bench', causationId: null, actor: null },
        events: [
          {
            type: 'QuestionAsked',
            data: {
              questionId,
              recipient: owners[i % owners.length],
              asker: { userId: null, username: 'guest', name: 'Gus Guest', email: 'gus@example.com' },
              question: `Question ${i} about pricing, delivery and the rest?`,
              detail: 'A little detail.',
              tip: null,
              askedAt: new Date(Date.now() - i * 1000).toISOString(),
              answerDeadline: null,
            },
          },
        ],
      });
    }
    const copies = Math.max(0, Math.ceil(EVENTS / 1_000) - 1);
    if (copies > 0) {
      await raw.query(
        `INSERT INTO questions.events (event_id, stream_id, stream_version, type, data, metadata, recorded_at)
         SELECT gen_random_uuid(), e.stream_id || '-' || g, e.stream_version, e.type,
                jsonb_set(e.data, '{questionId}', to_jsonb(gen_random_uuid()::text)), e.metadata, e.recorded_at
         FROM questions.events e, generate_series(1, $1) g`,
        [copies],
      );
    }
    const total = Number((await raw.query('SELECT count(*)::int AS n FROM questions.events')).rows[0].n);
    await raw.query('ANALYZE questions.events');

    // Baseline: the same rows read in the same keyset batches, nothing done with them.
    let started = performance.now();
    for (let after = 0; ; ) {
      const { rows } = await raw.query('SELECT * FROM questions.events WHERE global_position > $1 ORDER BY global_position LIMIT 5000', [after]);
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1].global_position);
    }
    const rawReadPerSec = total / ((performance.now() - started) / 1000);

    started = performance.now();
    const { result: applied, cpu: rebuildCpuUsed } = await measureCpu(databaseName, () => rebuildProjections(store, log));
    const rebuildPerSec = applied / ((performance.now() - started) / 1000);

    // The floor's read half: the same keyset batches as text; Node parses each event's JSON and unseals its personal
    // data with the vault (one AES-GCM open per sealed group), nothing else.
    const { cpu: floorReadCpu } = await measureCpu(databaseName, async () => {
      for (let after = 0; ; ) {
        const { rows } = await raw.query<string[]>({
          text: 'SELECT global_position, type, data, metadata FROM questions.events WHERE global_position > $1 ORDER BY global_position LIMIT 5000',
          values: [after],
          rowMode: 'array',
          types: AS_TEXT,
        });
        if (rows.length === 0) break;
        const events = rows.map((row) => ({ type: row[1]!, data: JSON.parse(row[2]!) as unknown, metadata: JSON.parse(row[3]!) as unknown }));
        await questionsService.cipher!.open(store.db, events, { inPlace: true });
        after = Number(rows[rows.length - 1]![0]);
      }
    });
    // The floor's write half: the rows just rebuilt, written again by Postgres alone (ADR 0050).
    const floor = await prepareWriteFloor(raw, 'questions', [...new Set(questionsService.projections.flatMap((p) => p.tables))]);
    const { cpu: writeCpu } = await measureCpu(databaseName, () => floor.write());
    await floor.drop();
    const cpu = rebuildCpu(applied, rebuildCpuUsed, floorReadCpu, writeCpu);

    // Relay: OUTBOX unpublished rows, one relay, real JetStream.
    let relayPerSec: number | null = null;
    const natsUrl = await natsTestUrl();
    if (natsUrl) {
      await raw.query('TRUNCATE questions.outbox');
      const sample = (await raw.query(`SELECT subject, envelope FROM questions.outbox LIMIT 1`)).rows[0] as { subject: string; envelope: unknown } | undefined;
      const envelope = sample?.envelope ?? {
        id: randomUUID(), type: 'QuestionAsked', version: 1, streamId: 'question-x', streamVersion: 1,
        occurredAt: new Date().toISOString(), correlationId: 'bench', causationId: null, data: { questionId: randomUUID() },
      };
      await raw.query(
        `INSERT INTO questions.outbox (event_id, subject, envelope)
         SELECT id, 'ques.questions.QuestionAsked', jsonb_set($1::jsonb, '{id}', to_jsonb(id::text))
         FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, $2)) ids`,
        [JSON.stringify(envelope), OUTBOX],
      );
      const namespace = uniqueNamespace('bench');
      const bus = await NatsEventBus.connect({ servers: natsUrl, name: 'bench-relay', namespace, log });
      await bus.ensureStreams(['questions']);
      const relay = new OutboxRelay({ database, bus, log, pollIntervalMs: 50 });
      started = performance.now();
      await relay.start();
      // Watched through the relay's own count (it counts a batch once its rows are marked published), not by counting
      // unpublished rows every few milliseconds: that query competed with the relay for the database it measures.
      while (relay.publishedCount < OUTBOX) await new Promise((r) => setTimeout(r, 5));
      relayPerSec = OUTBOX / ((performance.now() - started) / 1000);
      await relay.stop();
      const left = Number((await raw.query('SELECT count(*)::int AS n FROM questions.outbox WHERE published_at IS NULL')).rows[0].n);
      if (left !== 0) throw new Error(`relay bench: ${left} outbox rows left unpublished`);
      await bus.close();
      await deleteNamespaceStreams(natsUrl, namespace);
    }
    return { events: total, rawReadPerSec, rebuildPerSec, cpu, outbox: OUTBOX, relayPerSec };
  } finally {
    await raw.end();
    await database.close();
    await testDb.drop();
  }
}
