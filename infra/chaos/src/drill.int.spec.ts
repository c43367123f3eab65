import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { infraGate, postgresServerUrl } from '@ques/kit/testing';
import { natsServerBinary } from './config.js';
import { runDrills } from './drill/run.js';

const run = infraGate(
  !!(await postgresServerUrl()) && existsSync(natsServerBinary()),
  'Postgres and the nats-server binary',
);

/**
 * `npm run chaos -- drill --short` inside `npm test` (issue 33, ADR 0059): the JetStream streams deleted with answers
 * still unconsumed and recovered by republishing the event stores; a backup under load restored into a fresh
 * database, rebuilt and compared table by table with the checksums the backup recorded. Each drill carries its own
 * control (the tips lost with the streams before the republish, the read models that differ before the rebuild), so
 * skipping the republish or the rebuild fails it.
 */
describe.runIf(run)('recovery drills, short form', () => {
  it(
    'recovers lost streams without applying anything twice, and restores a backup to the cent',
    async () => {
      const report = await runDrills({ mode: 'short', progress: (line) => console.log(`[drill] ${line}`) });
      console.log(report.table);
      expect(report.error).toBeNull();
      expect(report.crashes).toEqual([]);
      expect(report.failures, report.table).toEqual([]);
      const row = (step: string) => report.rows.find((r) => r.step === step)?.detail ?? '';
      expect(row('before republish')).toMatch(/^[1-9]\d* of \d+ answered tips not captured/);
      expect(row('after republish')).toMatch(/^0 of [1-9]\d* answered tips not captured/);
      expect(row('tables changed by the second republish')).toMatch(/^none of \d+/);
      expect(row('restored, not rebuilt')).toMatch(/^[1-9]\d* tables differ/);
      expect(row('compared with the backup')).toMatch(/^all \d+ tables identical/);
      expect(report.passed).toBe(true);
    },
    5 * 60_000,
  );
});
