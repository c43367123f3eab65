import { randomUUID } from 'node:crypto';
import { refreshCast } from '../load/cast.js';
import { BffClient, summary } from '../load/client.js';
import { withClient } from '../topology/postgres.js';
import { sleep } from '../util.js';
import { republishAll } from './admin.js';
import {
  figure,
  fail,
  loadIsServing,
  moneyDisagreements,
  sinceNow,
  startLoad,
  step,
  verdict,
  type DrillContext,
} from './context.js';
import { currentFigures } from './backup.js';
import { differences, dollars, type DataFigures } from './figures.js';
import { deleteStreams, saveStreams, streamCounts } from './streams.js';

const DRILL = 'stream loss' as const;

/**
 * Makes PhaseLoad ask only tipped guest questions with no follow-up: tips that stay held, so the drill has answers whose
 * capture travels only by event. Its newRecord draws three numbers per guest ask (kind 0.6 = tipped guest, follow-up
 * 0.9 = none, then the owner), and a follow-up of none draws no more.
 */
function heldTipsOnly(): () => number {
  let n = 0;
  return () => {
    const i = n++;
    return i % 3 === 0 ? 0.6 : i % 3 === 1 ? 0.9 : (Math.floor(i / 3) % 4) / 4 + 0.1;
  };
}

const tipsAnsweredNotCaptured = (databaseUrl: string, ids: string[]) =>
  withClient(databaseUrl, async (c) =>
    Number(
      (
        await c.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM payments.tips WHERE question_id = ANY($1::uuid[]) AND status <> 'captured'`,
          [ids],
        )
      ).rows[0]!.n,
    ),
  );

const summarise = (f: DataFigures) =>
  `processed events ${Object.entries(f.tables)
    .filter(([k]) => k.endsWith('.processed_events'))
    .reduce(
      (n, [, t]) => n + t.rows,
      0,
    )}, ledger ${dollars(f.money.ledgerCents)} (fee ${dollars(f.money.feeCents)}, net ${dollars(f.money.netCents)})`;

/**
 * The JetStream stream-loss drill: the event streams are deleted while messages in them have not been consumed (the
 * answers to held tips, with payments down), and are recovered by republishing every service's event store. It checks
 * that the lost answers were captured after all, that the load before and during the recovery lost and duplicated
 * nothing, and that a second full republish changes no row anywhere (consumers apply nothing twice).
 */
export async function streamLossDrill(ctx: DrillContext): Promise<void> {
  const { topology } = ctx;
  const url = topology.database!.url;
  const target = { databaseUrl: url, natsUrl: topology.natsUrl, namespace: topology.namespace };
  const client = new BffClient(topology.bffUrl, undefined, ctx.signal);

  // Held tips to answer once payments is down: their AnswerPosted then sits unconsumed in the QUESTIONS stream.
  const heldSince = await sinceNow(ctx);
  const held = startLoad(ctx, 'held', heldTipsOnly(), {
    ...ctx.plan,
    minOps: Math.max(4, Math.round(ctx.plan.minOps / 4)),
  });
  await step(
    ctx,
    DRILL,
    'tipped asks left held',
    () => held.finish(),
    () => `${held.accepted} accepted`,
  );
  await verdict(ctx, DRILL, 'held', held.records, heldSince);
  const toAnswer = held.records.filter((r) => r.outcome === 'accepted' && r.questionId);
  if (toAnswer.length === 0) return fail(ctx, 'stream loss: no held tip to answer');

  await topology.signal('payments#1', 'SIGKILL');
  await refreshCast(client, ctx.cast);
  await step(
    ctx,
    DRILL,
    'payments down; owners answer the held questions',
    async () => {
      for (const record of toAnswer) {
        const res = await client.reliably('PUT', `/api/questions/${record.questionId}/answer`, {
          json: { answer: `Answer to ${record.marker}` },
          token: record.owner.token,
          idempotencyKey: randomUUID(),
          deadline: Date.now() + ctx.plan.callDeadlineMs,
        });
        record.answered = res.ok && res.reply.status >= 200 && res.reply.status < 300 ? 'yes' : 'unknown';
        if (record.answered !== 'yes')
          record.detail = `answer: ${res.ok ? `${res.reply.status} ${summary(res.reply.body)}` : res.last}`;
      }
    },
    () =>
      `${toAnswer.filter((r) => r.answered === 'yes').length} answered, AnswerPosted waiting in the stream; ${toAnswer
        .map((r) => r.detail)
        .filter(Boolean)
        .slice(0, 2)
        .join('; ')}`,
  );

  const saved = await saveStreams(topology.natsUrl, topology.namespace);
  const before = await streamCounts(topology.natsUrl, topology.namespace);
  await step(
    ctx,
    DRILL,
    'streams deleted',
    () => deleteStreams(topology.natsUrl, topology.namespace),
    (names) =>
      `${names.length} streams (${names.map((n) => `${n} ${before[n] ?? 0} msgs`).join(', ')}); ${saved.consumers.length} durables with them`,
  );
  // payments comes back and recreates the streams it uses (empty): what was in them is gone.
  await step(ctx, DRILL, 'payments restarted', () => topology.restart('payments#1'));
  await sleep(3_000, ctx.signal);
  const ids = toAnswer.filter((r) => r.answered === 'yes').map((r) => r.questionId!);
  if (ids.length === 0) return fail(ctx, 'stream loss: no held question could be answered');
  const lost = await tipsAnsweredNotCaptured(url, ids);
  figure(
    ctx,
    DRILL,
    'before republish',
    `${lost} of ${ids.length} answered tips not captured (their events went with the streams)`,
  );
  if (lost === 0)
    fail(
      ctx,
      'stream loss: nothing was lost with the streams, the drill proves nothing (answers captured before the deletion)',
    );

  // Recovery under load: the clients keep asking while every service republishes its store.
  const recoverySince = await sinceNow(ctx);
  const recovery = startLoad(ctx, 'recovery');
  await loadIsServing(ctx, recovery);
  await step(
    ctx,
    DRILL,
    'republish (all services, from position 0)',
    () => republishAll(target),
    () => '',
  );
  figure(
    ctx,
    DRILL,
    'stream messages after republish',
    JSON.stringify(await streamCounts(topology.natsUrl, topology.namespace)),
  );
  await recovery.finish();
  await verdict(ctx, DRILL, 'held', held.records, heldSince);
  await verdict(ctx, DRILL, 'recovery', recovery.records, recoverySince);
  const stillLost = await tipsAnsweredNotCaptured(url, ids);
  figure(ctx, DRILL, 'after republish', `${stillLost} of ${ids.length} answered tips not captured`);
  if (stillLost > 0)
    fail(ctx, `stream loss: ${stillLost} answered tips still not captured after the republish`);

  // Idempotency: everything again, to consumers that have applied all of it. No row may change.
  const a = await currentFigures(url);
  await step(ctx, DRILL, 'second republish (everything a duplicate)', () => republishAll(target));
  await step(ctx, DRILL, 'consumers caught up', () => caughtUp(ctx));
  const b = await currentFigures(url);
  figure(ctx, DRILL, 'figures before second republish', summarise(a));
  figure(ctx, DRILL, 'figures after second republish', summarise(b));
  const changed = differences(a, b);
  figure(
    ctx,
    DRILL,
    'tables changed by the second republish',
    changed.length ? changed.join('; ') : `none of ${Object.keys(b.tables).length}`,
  );
  if (changed.length) fail(ctx, `stream loss: the second republish changed ${changed.join('; ')}`);
  const money = await moneyDisagreements(url);
  figure(ctx, DRILL, 'money across services', JSON.stringify(money));
  if (money.disagree || money.answeredNotCaptured || money.doubleBooked)
    fail(ctx, `stream loss: money views disagree ${JSON.stringify(money)}`);
}

/** JetStream has handed every message to its durable and had it acknowledged, and no outbox row is waiting. */
async function caughtUp(ctx: DrillContext): Promise<void> {
  const deadline = Date.now() + ctx.quiescenceTimeoutMs;
  for (;;) {
    const js = await ctx.topology.backlog();
    const outbox = await withClient(ctx.topology.database!.url, async (c) => {
      let n = 0;
      for (const s of ['identity', 'questions', 'payments', 'support'])
        n += Number(
          (
            await c.query<{ n: string }>(
              `SELECT count(*)::text AS n FROM "${s}".outbox WHERE published_at IS NULL`,
            )
          ).rows[0]!.n,
        );
      return n;
    });
    if (js.pending === 0 && js.ackPending === 0 && outbox === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `consumers did not catch up: pending ${js.pending}, unacked ${js.ackPending}, outbox ${outbox}`,
      );
    await sleep(250, ctx.signal);
  }
}
