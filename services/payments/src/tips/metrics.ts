import type { Kysely } from 'kysely';
import { Counter, Gauge, type Metrics } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';

/**
 * Payments' own series (ADR 0027): captures and releases so far, and tips per stage. Read from the tips read model at
 * scrape time, so every instance reports the same figures and a restart loses none (Prometheus takes one series per
 * instance; dashboards use `max`).
 */
export function registerPaymentsMetrics(db: Kysely<PaymentsDB>, metrics: Metrics): void {
  let inFlight: Promise<Map<string, number>> | null = null;
  const byStatus = () =>
    (inFlight ??= db
      .selectFrom('tips')
      .select(['status', db.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute()
      .then((rows) => new Map(rows.map((r) => [r.status as string, Number(r.n)])))
      .finally(() => {
        inFlight = null;
      }));
  new Counter({
    name: 'ques_payments_captures_total',
    help: 'Tips captured (the card charged) so far.',
    registers: [metrics.registry],
    async collect() {
      this.reset();
      this.inc((await byStatus()).get('captured') ?? 0);
    },
  });
  new Counter({
    name: 'ques_payments_releases_total',
    help: 'Tips released (the hold let go: unanswered, withdrawn, declined) so far.',
    registers: [metrics.registry],
    async collect() {
      this.reset();
      this.inc((await byStatus()).get('released') ?? 0);
    },
  });
  new Gauge({
    name: 'ques_payments_tips',
    help: 'Tips by stage (started, authorized, capturing, captured, releasing, released).',
    labelNames: ['status'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const [status, n] of await byStatus()) this.set({ status }, n);
    },
  });
}
