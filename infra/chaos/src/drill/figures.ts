import { createHash } from 'node:crypto';
import type pg from 'pg';

/** The services' schemas, in the order a restore brings them back (each one is self-contained). */
export const SERVICE_SCHEMAS = ['identity', 'questions', 'payments', 'support'] as const;
export type ServiceSchema = (typeof SERVICE_SCHEMAS)[number];

export interface TableChecksum {
  rows: number;
  checksum: string;
}

export interface MoneyTotals {
  /** Captured money as the ledger books it, in cents. */
  ledgerCents: number;
  feeCents: number;
  netCents: number;
  /** Tips per state (authorized = held, captured, released, …): how many and how many cents. */
  tips: Record<string, { count: number; cents: number }>;
}

/** What a drill compares before and after: every table's checksum, the record's size, what must not go missing. */
export interface DataFigures {
  /** `schema.table` → rows and checksum, for every table of the services' schemas (bookkeeping excepted). */
  tables: Record<string, TableChecksum>;
  events: Record<string, { count: number; lastPosition: number }>;
  questions: number;
  answers: number;
  tips: number;
  money: MoneyTotals;
}

/**
 * Written by the operator tools themselves (a rebuild or a republish records who ran it), so they differ after a
 * drill by design; everything else must come back identical.
 */
const NOT_COMPARED = new Set(['operator_log']);

/**
 * Row count and an order-independent checksum (the md5 of the sorted md5s of the rows' text): the same rows give the
 * same figure whatever order or physical layout a restore or a rebuild left them in. As the kit's dry-run rebuild.
 */
export async function checksumTable(c: pg.ClientBase, schema: string, table: string): Promise<TableChecksum> {
  const res = await c.query<{ n: string; sum: string }>(
    `SELECT count(*)::text AS n, coalesce(md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))), '') AS sum
       FROM "${schema}"."${table}" AS t`,
  );
  return { rows: Number(res.rows[0]?.n ?? 0), checksum: res.rows[0]?.sum ?? '' };
}

const num = (v: unknown) => Number(v ?? 0);

/** Reads the figures on `c`, in whatever transaction (snapshot) it is in. */
export async function readFigures(c: pg.ClientBase): Promise<DataFigures> {
  const tables = await c.query<{ table_schema: string; table_name: string }>(
    `SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE' ORDER BY 1, 2`,
    [[...SERVICE_SCHEMAS]],
  );
  const figures: DataFigures = {
    tables: {},
    events: {},
    questions: 0,
    answers: 0,
    tips: 0,
    money: { ledgerCents: 0, feeCents: 0, netCents: 0, tips: {} },
  };
  for (const { table_schema: schema, table_name: table } of tables.rows) {
    if (NOT_COMPARED.has(table)) continue;
    figures.tables[`${schema}.${table}`] = await checksumTable(c, schema, table);
    if (table === 'events') {
      const res = await c.query<{ n: string; last: string | null }>(
        `SELECT count(*)::text AS n, max(global_position)::text AS last FROM "${schema}".events`,
      );
      figures.events[schema] = { count: num(res.rows[0]?.n), lastPosition: num(res.rows[0]?.last) };
    }
  }
  // A question the asker has not paid for yet is not a question (the checkout may still expire).
  const q = await c.query<{ questions: string; answers: string }>(
    `SELECT count(*) FILTER (WHERE lifecycle <> 'awaiting_payment')::text AS questions,
            count(*) FILTER (WHERE answer IS NOT NULL)::text AS answers FROM questions.questions`,
  );
  figures.questions = num(q.rows[0]?.questions);
  figures.answers = num(q.rows[0]?.answers);
  const ledger = await c.query<{ amount: string; fee: string; net: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS amount, coalesce(sum(application_fee), 0)::text AS fee,
            coalesce(sum(net), 0)::text AS net FROM payments.ledger`,
  );
  figures.money.ledgerCents = num(ledger.rows[0]?.amount);
  figures.money.feeCents = num(ledger.rows[0]?.fee);
  figures.money.netCents = num(ledger.rows[0]?.net);
  const tips = await c.query<{ status: string; n: string; cents: string }>(
    `SELECT status, count(*)::text AS n, coalesce(sum(amount), 0)::text AS cents FROM payments.tips GROUP BY status ORDER BY status`,
  );
  for (const t of tips.rows) {
    figures.money.tips[t.status] = { count: num(t.n), cents: num(t.cents) };
    figures.tips += num(t.n);
  }
  return figures;
}

/** One checksum over several tables' checksums (a schema's read models, say), for a report row. */
export function combinedChecksum(figures: DataFigures, keys: readonly string[]): TableChecksum {
  const hash = createHash('md5');
  let rows = 0;
  for (const key of [...keys].sort()) {
    const t = figures.tables[key];
    hash.update(`${key}:${t?.rows ?? 'missing'}:${t?.checksum ?? ''};`);
    rows += t?.rows ?? 0;
  }
  return { rows, checksum: hash.digest('hex') };
}

/** What differs between two sets of figures, one line each (empty: identical). */
export function differences(before: DataFigures, after: DataFigures): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
  for (const key of [...keys].sort()) {
    const a = before.tables[key];
    const b = after.tables[key];
    if (!a) out.push(`${key}: new table after (${b!.rows} rows)`);
    else if (!b) out.push(`${key}: table missing after (${a.rows} rows before)`);
    else if (a.rows !== b.rows || a.checksum !== b.checksum)
      out.push(
        `${key}: ${a.rows} rows ${a.checksum.slice(0, 8)} before, ${b.rows} rows ${b.checksum.slice(0, 8)} after`,
      );
  }
  for (const field of ['questions', 'answers', 'tips'] as const)
    if (before[field] !== after[field]) out.push(`${field}: ${before[field]} before, ${after[field]} after`);
  if (JSON.stringify(before.money) !== JSON.stringify(after.money))
    out.push(`money: ${JSON.stringify(before.money)} before, ${JSON.stringify(after.money)} after`);
  return out;
}

/** Dollars and cents, for the report. */
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
