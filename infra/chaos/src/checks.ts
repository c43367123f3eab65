import type pg from 'pg';
import type { AskRecord } from './load/workload.js';
import { withClient } from './topology/postgres.js';

/** Work the system still owes: all zero means every event has travelled and every effect has happened. */
export interface Backlog {
  outboxUnpublished: number;
  tipsInFlight: number;
  /** Scheduled jobs due now, or due for their first retry within seconds (a transient failure gets its retry). */
  jobsDue: number;
  /** Accepted asks whose question is not visible yet. */
  acceptedNotVisible: number;
  /** Questions the client answered or withdrew whose row does not show it yet; tips whose views disagree. */
  wrongState: number;
}

export interface PhaseFigures {
  asks: number;
  accepted: number;
  acceptedFree: number;
  acceptedTipped: number;
  rejected: number;
  gaveUp: number;
  present: number;
  /** Accepted, not present. */
  lost: number;
  /** Present although the client never got a 2xx (committed, then the answer was lost: a retry would duplicate it). */
  ghosts: number;
  /** Rows beyond the first for one ask. */
  duplicates: number;
  doubleCaptures: number;
  capturedAndReleased: number;
  /** Answered/withdrawn as the client was told, tip state equal in questions, payments and at the provider. */
  wrongFinalState: number;
  outboxUnpublished: number;
  deadLetters: number;
  /** Jobs created in the phase that failed and are still retrying (beyond the short wait) or gave up. */
  jobsFailing: number;
  /** Examples of what went wrong, for the report. */
  samples: string[];
}

interface QuestionRow {
  id: string;
  question: string;
  lifecycle: string;
  tip_amount: number;
  tip_status: string;
}

interface TipRow {
  question_id: string;
  status: string;
}

interface MoneyFacts {
  tips: Map<string, string>;
  ledger: Map<string, number>;
  /** PaymentIntent statuses at the provider (test mode), per question. */
  intents: Map<string, string[]>;
  captureEvents: Map<string, number>;
  refundEvents: Map<string, number>;
}

const MARKER = /\[[^\]/]+\/[^\]/]+\/\d+\]/;

/** Schemas of the database that hold a kit event store (outbox, dead letters, jobs). */
async function storeSchemas(c: pg.Client): Promise<string[]> {
  const res = await c.query<{ table_schema: string }>(
    `SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox' ORDER BY 1`,
  );
  return res.rows.map((r) => r.table_schema);
}

async function sumOver(c: pg.Client, schemas: string[], sql: (schema: string) => string): Promise<number> {
  let total = 0;
  for (const schema of schemas) total += Number((await c.query<{ n: string }>(sql(schema))).rows[0]?.n ?? 0);
  return total;
}

export async function deadLetterCount(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (c) =>
    sumOver(c, await storeSchemas(c), (s) => `SELECT count(*) AS n FROM "${s}".dead_letters`),
  );
}

async function questionsOf(c: pg.Client, tag: string, phase: string): Promise<QuestionRow[]> {
  const res = await c.query<QuestionRow>(
    `SELECT id, question, lifecycle, tip_amount, tip_status FROM questions.questions WHERE question LIKE $1`,
    [`%[${tag}/${phase}/%`],
  );
  return res.rows;
}

async function moneyFacts(c: pg.Client, questionIds: string[]): Promise<MoneyFacts> {
  const facts: MoneyFacts = {
    tips: new Map(),
    ledger: new Map(),
    intents: new Map(),
    captureEvents: new Map(),
    refundEvents: new Map(),
  };
  if (questionIds.length === 0) return facts;
  const tips = await c.query<TipRow>(
    `SELECT question_id, status FROM payments.tips WHERE question_id = ANY($1::uuid[])`,
    [questionIds],
  );
  for (const t of tips.rows) facts.tips.set(t.question_id, t.status);
  const ledger = await c.query<{ question_id: string }>(
    `SELECT question_id FROM payments.ledger WHERE question_id = ANY($1::uuid[])`,
    [questionIds],
  );
  for (const l of ledger.rows) facts.ledger.set(l.question_id, (facts.ledger.get(l.question_id) ?? 0) + 1);
  const intents = await c.query<{ question_id: string; status: string }>(
    `SELECT metadata->>'questionId' AS question_id, status FROM payments.testmode_payment_intents WHERE metadata->>'questionId' = ANY($1::text[])`,
    [questionIds],
  );
  for (const i of intents.rows)
    facts.intents.set(i.question_id, [...(facts.intents.get(i.question_id) ?? []), i.status]);
  const events = await c.query<{ stream_id: string; type: string; n: string }>(
    `SELECT stream_id, type, count(*) AS n FROM payments.events
      WHERE stream_id = ANY($1::text[]) AND type IN ('TipCaptured', 'TipRefunded') GROUP BY stream_id, type`,
    [questionIds.map((id) => `tip-${id}`)],
  );
  for (const e of events.rows) {
    const id = e.stream_id.slice('tip-'.length);
    (e.type === 'TipCaptured' ? facts.captureEvents : facts.refundEvents).set(id, Number(e.n));
  }
  return facts;
}

/** The state a tipped question's money is in, seen from questions, payments and the provider; null if they disagree. */
function moneyState(q: QuestionRow, facts: MoneyFacts): 'held' | 'captured' | 'released' | null {
  const tip = facts.tips.get(q.id);
  const intents = facts.intents.get(q.id) ?? [];
  const ledger = facts.ledger.get(q.id) ?? 0;
  if (
    q.tip_status === 'held' &&
    tip === 'authorized' &&
    intents.length === 1 &&
    intents[0] === 'requires_capture' &&
    ledger === 0
  )
    return 'held';
  if (
    q.tip_status === 'captured' &&
    tip === 'captured' &&
    intents.length === 1 &&
    intents[0] === 'succeeded' &&
    ledger === 1
  )
    return 'captured';
  if (
    q.tip_status === 'released' &&
    tip === 'released' &&
    intents.every((s) => s === 'canceled') &&
    ledger === 0
  )
    return 'released';
  return null;
}

interface Evaluation {
  figures: PhaseFigures;
  backlog: Omit<Backlog, 'outboxUnpublished' | 'tipsInFlight' | 'jobsDue'>;
}

/** Compares what the clients were told with what the databases hold, for one phase's asks. */
async function evaluate(c: pg.Client, tag: string, phase: string, records: AskRecord[]): Promise<Evaluation> {
  const rows = (await questionsOf(c, tag, phase)).filter((r) => r.lifecycle !== 'awaiting_payment');
  const byMarker = new Map<string, QuestionRow[]>();
  for (const row of rows) {
    const marker = MARKER.exec(row.question)?.[0];
    if (marker) byMarker.set(marker, [...(byMarker.get(marker) ?? []), row]);
  }
  const tippedIds = [
    ...new Set([
      ...rows.filter((r) => r.tip_amount > 0).map((r) => r.id),
      ...records.filter((r) => r.kind.startsWith('tipped') && r.questionId).map((r) => r.questionId!),
    ]),
  ];
  const money = await moneyFacts(c, tippedIds);
  const samples: string[] = [];
  const sample = (text: string) => {
    if (samples.length < 12) samples.push(text);
  };

  const accepted = records.filter((r) => r.outcome === 'accepted');
  let lost = 0;
  let ghosts = 0;
  let duplicates = 0;
  let wrongFinalState = 0;
  for (const record of records) {
    const found = byMarker.get(record.marker) ?? [];
    if (found.length > 1) {
      duplicates += found.length - 1;
      sample(`duplicate: ${record.marker} (${record.kind}) stored ${found.length} times`);
    }
    if (record.outcome === 'accepted' && found.length === 0) {
      lost++;
      sample(`lost: ${record.marker} (${record.kind}) accepted as ${record.questionId}, not present`);
    }
    if (record.outcome !== 'accepted' && found.length > 0) {
      ghosts++;
      sample(
        `present but never acknowledged: ${record.marker} (${record.kind}) — client saw ${record.detail}`,
      );
    }
    if (record.outcome !== 'accepted' || found.length === 0) continue;
    const row = found.find((r) => r.id === record.questionId) ?? found[0]!;
    const problem = wrongState(record, row, money);
    if (problem) {
      wrongFinalState++;
      sample(`wrong final state: ${record.marker} (${record.kind}, ${record.followUp}): ${problem}`);
    }
  }

  let doubleCaptures = 0;
  let capturedAndReleased = 0;
  for (const id of tippedIds) {
    const intents = money.intents.get(id) ?? [];
    const captures = Math.max(
      money.captureEvents.get(id) ?? 0,
      intents.filter((s) => s === 'succeeded').length,
      money.ledger.get(id) ?? 0,
    );
    if (captures > 1) {
      doubleCaptures++;
      sample(`double capture: question ${id} captured ${captures} times`);
    }
    const captured = captures > 0 || money.tips.get(id) === 'captured';
    const released =
      (money.refundEvents.get(id) ?? 0) > 0 ||
      intents.includes('canceled') ||
      money.tips.get(id) === 'released';
    if (captured && released) {
      capturedAndReleased++;
      sample(
        `captured and released: question ${id} (tip ${money.tips.get(id)}, intents ${intents.join('/')})`,
      );
    }
  }

  const presentMarkers = new Set(byMarker.keys());
  const figures: PhaseFigures = {
    asks: records.length,
    accepted: accepted.length,
    acceptedFree: accepted.filter((r) => r.kind.startsWith('free')).length,
    acceptedTipped: accepted.filter((r) => r.kind.startsWith('tipped')).length,
    rejected: records.filter((r) => r.outcome === 'rejected').length,
    gaveUp: records.filter((r) => r.outcome === 'gave-up').length,
    present: records.filter((r) => presentMarkers.has(r.marker)).length,
    lost,
    ghosts,
    duplicates,
    doubleCaptures,
    capturedAndReleased,
    wrongFinalState,
    outboxUnpublished: 0,
    deadLetters: 0,
    jobsFailing: 0,
    samples,
  };
  return { figures, backlog: { acceptedNotVisible: lost, wrongState: wrongFinalState } };
}

/** What the row (and, for a tip, the money) should show given what the client was told; null when it does. */
function wrongState(record: AskRecord, row: QuestionRow, money: MoneyFacts): string | null {
  if (record.answered === 'yes' && record.withdrawn === 'yes')
    return 'both the answer and the withdrawal were accepted';
  const expected =
    record.answered === 'yes'
      ? 'answered'
      : record.withdrawn === 'yes'
        ? 'withdrawn'
        : record.answered === 'no' && record.withdrawn === 'no'
          ? 'pending'
          : null;
  if (expected && row.lifecycle !== expected)
    return `question is ${row.lifecycle}, the client was told ${expected}`;
  if (!record.kind.startsWith('tipped')) return null;
  const state = moneyState(row, money);
  const describe = () =>
    `questions says ${row.tip_status}, payments ${money.tips.get(row.id) ?? 'nothing'}, provider ${(money.intents.get(row.id) ?? []).join('/') || 'nothing'}, ledger ${money.ledger.get(row.id) ?? 0}`;
  if (!state) return `tip views disagree: ${describe()}`;
  const expectedMoney =
    row.lifecycle === 'answered' ? 'captured' : row.lifecycle === 'withdrawn' ? 'released' : 'held';
  if (state !== expectedMoney) return `tip ${state} for a question ${row.lifecycle}: ${describe()}`;
  return null;
}

/**
 * The wait for quiescence also waits for a job's first retry (the kit retries after 5 s), and for a job run again
 * after its database connection was lost (attempts unchanged, last_error set, due 1 s later): a transient failure
 * deserves its next run. A job that failed twice on its merits is counted as failing instead.
 */
const FIRST_RETRY_GRACE_SECONDS = 10;

/** Everything the system still owes, read directly from the databases. */
export async function readBacklog(
  databaseUrl: string,
  tag: string,
  phase: string,
  records: AskRecord[],
): Promise<Backlog> {
  return withClient(databaseUrl, async (c) => {
    const schemas = await storeSchemas(c);
    const outboxUnpublished = await sumOver(
      c,
      schemas,
      (s) => `SELECT count(*) AS n FROM "${s}".outbox WHERE published_at IS NULL`,
    );
    const jobsDue = await sumOver(
      c,
      schemas,
      (s) =>
        `SELECT count(*) AS n FROM "${s}".scheduled_jobs WHERE status = 'pending'
          AND (due_at <= now() OR (attempts <= 1 AND last_error IS NOT NULL
                AND due_at <= now() + interval '${FIRST_RETRY_GRACE_SECONDS} seconds'))`,
    );
    const tipsInFlight = Number(
      (await c.query(`SELECT count(*) AS n FROM payments.tips WHERE status IN ('capturing', 'releasing')`))
        .rows[0].n,
    );
    const { backlog } = await evaluate(c, tag, phase, records);
    return { outboxUnpublished, tipsInFlight, jobsDue, ...backlog };
  });
}

/** The phase's figures, read once the system is quiet (or the wait for it gave up). */
export async function checkPhase(
  databaseUrl: string,
  tag: string,
  phase: string,
  records: AskRecord[],
  since: { deadLetters: number; at: Date },
): Promise<PhaseFigures> {
  return withClient(databaseUrl, async (c) => {
    const schemas = await storeSchemas(c);
    const { figures } = await evaluate(c, tag, phase, records);
    const samples: string[] = [];
    figures.outboxUnpublished = await sumOver(
      c,
      schemas,
      (s) => `SELECT count(*) AS n FROM "${s}".outbox WHERE published_at IS NULL`,
    );
    figures.deadLetters =
      (await sumOver(c, schemas, (s) => `SELECT count(*) AS n FROM "${s}".dead_letters`)) - since.deadLetters;
    for (const schema of schemas) {
      const failing = await c.query<{
        kind: string;
        attempts: number;
        status: string;
        last_error: string | null;
      }>(
        `SELECT kind, attempts, status, last_error FROM "${schema}".scheduled_jobs
          WHERE created_at >= $1 AND ((status = 'pending' AND attempts > 0) OR status = 'failed') ORDER BY id`,
        [since.at],
      );
      figures.jobsFailing += failing.rows.length;
      for (const j of failing.rows.slice(0, 2)) {
        samples.push(
          `job failing in ${schema}: ${j.kind} (${j.status}, ${j.attempts} attempts): ${(j.last_error ?? '').slice(0, 200)}`,
        );
      }
      if (figures.deadLetters > 0) {
        const res = await c.query<{ consumer: string; subject: string; error: string }>(
          `SELECT consumer, subject, error FROM "${schema}".dead_letters WHERE created_at >= $1 ORDER BY id DESC LIMIT 3`,
          [since.at],
        );
        for (const d of res.rows)
          samples.push(`dead letter in ${schema}: ${d.consumer} ${d.subject}: ${d.error.slice(0, 200)}`);
      }
    }
    figures.samples.push(...samples);
    return figures;
  });
}

export const backlogIsEmpty = (b: Backlog) =>
  b.outboxUnpublished === 0 &&
  b.tipsInFlight === 0 &&
  b.jobsDue === 0 &&
  b.acceptedNotVisible === 0 &&
  b.wrongState === 0;
