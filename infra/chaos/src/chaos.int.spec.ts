import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { infraGate, postgresServerUrl } from '@ques/kit/testing';
import { natsServerBinary } from './config.js';
import { FAULTS } from './faults.js';
import { runChaos } from './run.js';

const run = infraGate(
  !!(await postgresServerUrl()) && existsSync(natsServerBinary()),
  'Postgres and the nats-server binary',
);

/**
 * `npm run chaos -- --short` inside `npm test`: every fault once against the plain-process topology, a few hundred
 * asks, tipped checkouts and answers. Each phase must lose, duplicate and crash nothing (see report.ts's gates).
 * Part of `npm test` (about 70 s here); CHAOS_IN_TEST=0 leaves it out (vitest.config.ts).
 */
describe.runIf(run)('chaos suite, short run', () => {
  it(
    'loses nothing, duplicates nothing and crashes nothing under each fault',
    async () => {
      const report = await runChaos({ mode: 'short', progress: (line) => console.log(`[chaos] ${line}`) });
      const verdict = `${report.table}\n${report.findings}`;
      console.log(verdict);
      expect(report.error).toBeNull();
      expect(report.setupCrashes).toEqual([]);
      expect(
        report.phases.map((p) => ({ fault: p.fault, failures: p.failures })),
        verdict,
      ).toEqual(FAULTS.map((f) => ({ fault: f.name, failures: [] })));
      expect(report.passed).toBe(true);
    },
    15 * 60_000,
  );
});
