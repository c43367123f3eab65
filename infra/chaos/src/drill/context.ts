import { checkPhase, deadLetterCount, type PhaseFigures } from '../checks.js';
import type { Cast } from '../load/cast.js';
import { PhaseLoad, type AskRecord, type LoadPlan } from '../load/workload.js';
import { failuresOf } from '../report.js';
import { waitForQuiescence } from '../run.js';
import type { Topology } from '../topology/topology.js';
import { withClient } from '../topology/postgres.js';
import { pollUntil } from '../util.js';

export interface DrillRow {
  drill: 'stream loss' | 'restore';
  step: string;
  /** How long the step took; null for a figure that is not a step. */
  ms: number | null;
  detail: string;
}

export interface DrillContext {
  topology: Topology;
  cast: Cast;
  tag: string;
  plan: LoadPlan;
  random: () => number;
  quiescenceTimeoutMs: number;
  /** Where the backup goes. */
  backupDir: string;
  progress: (line: string) => void;
  signal?: AbortSignal;
  rows: DrillRow[];
  /** What failed, one line each; empty = the drills passed. */
  failures: string[];
}

/** Times `fn` and adds a report row with what it returns as the detail. */
export async function step<T>(
  ctx: DrillContext,
  drill: DrillRow['drill'],
  name: string,
  fn: () => Promise<T>,
  detail: (value: T) => string = () => '',
): Promise<T> {
  const started = Date.now();
  const value = await fn();
  const row = { drill, step: name, ms: Date.now() - started, detail: detail(value) };
  ctx.rows.push(row);
  ctx.progress(`${drill}: ${name} (${(row.ms / 1000).toFixed(1)} s)${row.detail ? ` — ${row.detail}` : ''}`);
  return value;
}

export function figure(ctx: DrillContext, drill: DrillRow['drill'], name: string, detail: string): void {
  ctx.rows.push({ drill, step: name, ms: null, detail });
  ctx.progress(`${drill}: ${name} — ${detail}`);
}

export function fail(ctx: DrillContext, line: string): void {
  ctx.failures.push(line);
  ctx.progress(`FAILED: ${line}`);
}

/** A phase's load, started; the caller finishes it. */
export function startLoad(ctx: DrillContext, phase: string, random = ctx.random, plan = ctx.plan): PhaseLoad {
  const load = new PhaseLoad(ctx.topology.bffUrl, ctx.cast, phase, ctx.tag, plan, random, ctx.signal);
  load.start();
  return load;
}

/** Waits until the load has had a few asks accepted, so what follows happens to a system that is serving. */
export async function loadIsServing(ctx: DrillContext, load: PhaseLoad): Promise<void> {
  await pollUntil(async () => load.accepted >= 3, {
    timeoutMs: 30_000,
    signal: ctx.signal,
    message: () =>
      `fewer than 3 asks accepted (${load.records
        .map((r) => r.detail)
        .filter(Boolean)
        .slice(-3)
        .join('; ')})`,
  });
}

/** Waits for quiescence, then checks the phase's asks as the fault phases do; failures go to the context. */
export async function verdict(
  ctx: DrillContext,
  drill: DrillRow['drill'],
  phase: string,
  records: AskRecord[],
  since: { deadLetters: number; at: Date },
): Promise<PhaseFigures> {
  const settled = await step(
    ctx,
    drill,
    `settle (${phase})`,
    () => waitForQuiescence(ctx.topology, ctx.tag, records, phase, ctx.quiescenceTimeoutMs, ctx.signal),
    (s) => (s.ms === null ? `did not settle: ${s.remaining}` : 'nothing owed'),
  );
  const figures = await checkPhase(ctx.topology.database!.url, ctx.tag, phase, records, since);
  const failures = failuresOf(figures, 0, settled.ms !== null);
  figure(
    ctx,
    drill,
    `checks (${phase})`,
    `asks ${figures.asks}, accepted ${figures.accepted}, present ${figures.present}, lost ${figures.lost}, duplicates ${figures.duplicates}, ` +
      `double captures ${figures.doubleCaptures}, wrong state ${figures.wrongFinalState}, dead letters ${figures.deadLetters}` +
      (failures.length ? ` — FAILED: ${failures.join(', ')}` : ''),
  );
  for (const f of failures) fail(ctx, `${drill} ${phase}: ${f} (${figures.samples.slice(0, 3).join('; ')})`);
  return figures;
}

export const sinceNow = async (ctx: DrillContext) => ({
  deadLetters: await deadLetterCount(ctx.topology.database!.url),
  at: new Date(),
});

/**
 * Every tipped question's money, across services: questions' view and payments' agree (held = authorized, captured,
 * released), an answered one is captured, and no question is in the ledger twice. Returns the disagreements.
 */
export async function moneyDisagreements(
  databaseUrl: string,
): Promise<{ disagree: number; answeredNotCaptured: number; doubleBooked: number }> {
  return withClient(databaseUrl, async (c) => {
    const res = await c.query<{ disagree: string; answered: string; doubled: string }>(`
      SELECT
        (SELECT count(*) FROM questions.questions q LEFT JOIN payments.tips t ON t.question_id = q.id
          WHERE q.tip_amount > 0 AND q.lifecycle <> 'awaiting_payment'
            AND NOT ((q.tip_status = 'held' AND t.status = 'authorized') OR (q.tip_status = 'captured' AND t.status = 'captured')
                  OR (q.tip_status = 'released' AND t.status = 'released')))::text AS disagree,
        (SELECT count(*) FROM questions.questions q
          WHERE q.tip_amount > 0 AND q.lifecycle = 'answered' AND q.tip_status <> 'captured')::text AS answered,
        (SELECT count(*) FROM (SELECT question_id FROM payments.ledger GROUP BY 1 HAVING count(*) > 1) d)::text AS doubled`);
    const r = res.rows[0]!;
    return {
      disagree: Number(r.disagree),
      answeredNotCaptured: Number(r.answered),
      doubleBooked: Number(r.doubled),
    };
  });
}
