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
import pg from 'pg';
import { questionsService, type QuestionsDB } from '@ques/questions';
import { connectPostgres, createLogger, EventStore, migrate, NatsEventBus, OutboxRelay, rebuildProjections } from '@ques/kit';
import { createTestDatabase, deleteNamespaceStreams, natsTestUrl, uniqueNamespace } from '@ques/kit/testing';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000); // npm run bench:pipeline: 1,000,000
const OUTBOX = Number(process.env.BENCH_OUTBOX ?? 50_000);
const log = createLogger('bench-pipeline', 'silent');

export interface PipelineResult {
  events: number;
  rawReadPerSec: number;
  rebuildPerSec: number;
  outbox: number;
  relayPerSec: number | null;
}

export async function runPipeline(): Promise<PipelineResult> {
  const testDb = await createTestDatabase();
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
    const applied = await rebuildProjections(store, log);
    const rebuildPerSec = applied / ((performance.now() - started) / 1000);

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
    return { events: total, rawReadPerSec, rebuildPerSec, outbox: OUTBOX, relayPerSec };
  } finally {
    await raw.end();
    await database.close();
    await testDb.drop();
  }
}
