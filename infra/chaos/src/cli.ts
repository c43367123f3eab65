#!/usr/bin/env node
/**
 * `node infra/chaos/dist/cli.js run [--short] [--seed N] [--only nats,kill-9]` — the chaos suite (`npm run chaos`).
 * `node infra/chaos/dist/cli.js run drill [--short] [--only stream-loss,restore]` — the recovery drills.
 * `node infra/chaos/dist/cli.js up [--questions N] [--payments N] [--identity N] [--support N]` — the plain-process topology, until Ctrl-C.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { keepRunDir, repoRoot } from './config.js';
import { FAULTS } from './faults.js';
import { DRILLS, runDrills, type DrillName } from './drill/run.js';
import { opsCommand } from './ops-cli.js';
import { runChaos } from './run.js';
import { Topology } from './topology/topology.js';

const started = Date.now();
const stamp = () => `[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s]`;
const progress = (line: string) => console.log(`${stamp()} ${line}`);

/** First Ctrl-C: stop cleanly (children, database, NATS, temp folders). Second: exit now (children are killed). */
function abortOnSignals(): AbortSignal {
  const controller = new AbortController();
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    console.error(`\n${signal}: stopping the topology and cleaning up (again to force)`);
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return controller.signal;
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      short: { type: 'boolean', default: false },
      long: { type: 'boolean', default: false },
      seed: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const mode = values.short ? 'short' : 'long';
  const signal = abortOnSignals();
  if (positionals[0] === 'drill') return drill(mode, values.seed, values.only, signal);
  if (positionals.length) throw new Error(`unknown argument ${positionals[0]} (a drill: \`run drill\`)`);
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only?.filter((name) => !FAULTS.some((f) => f.name === name)) ?? [];
  if (unknown.length)
    throw new Error(`unknown fault(s) ${unknown.join(', ')}; have ${FAULTS.map((f) => f.name).join(', ')}`);
  const report = await runChaos({
    mode,
    seed: values.seed ? Number(values.seed) : undefined,
    only,
    progress,
    signal,
  });

  const dir = join(repoRoot(), 'test-artifacts', 'chaos');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `report-${mode}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));

  console.log(`\nChaos ${mode} run (seed ${report.seed}) — ${(report.durationMs / 1000).toFixed(0)} s\n`);
  if (report.phases.length) console.log(report.table);
  if (report.findings) console.log(`\n${report.findings}`);
  for (const crash of report.setupCrashes)
    console.log(`✗ crash during setup: ${crash.process} exit ${crash.code ?? '-'} — ${crash.reason}`);
  if (report.error) console.log(`\n✗ run stopped early: ${report.error}`);
  for (const problem of report.cleanupProblems) console.log(`! cleanup: ${problem}`);
  console.log(
    `\n${report.passed ? 'PASS' : 'FAIL'} — report: ${file}${report.runDirKept ? `; logs: ${join(report.runDir, 'logs')}` : ''}`,
  );
  if (keepRunDir()) console.log(`kept: database ${report.database} (drop it when done), ${report.runDir}`);
  // The whole suite (no --only) ends with the recovery drills, on a topology of their own.
  if (only?.length || signal.aborted) return report.passed ? 0 : 1;
  console.log('');
  const drills = await drill(mode, values.seed, undefined, signal);
  return report.passed && drills === 0 ? 0 : 1;
}

/** `npm run chaos -- drill [--short] [--only stream-loss|restore]`: the recovery drills (ADR 0059). */
async function drill(
  mode: 'short' | 'long',
  seed: string | undefined,
  onlyArg: string | undefined,
  signal: AbortSignal,
): Promise<number> {
  const only =
    onlyArg
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const unknown = only.filter((name) => !DRILLS.includes(name as DrillName));
  if (unknown.length) throw new Error(`unknown drill(s) ${unknown.join(', ')}; have ${DRILLS.join(', ')}`);
  const report = await runDrills({
    mode,
    seed: seed ? Number(seed) : undefined,
    only: only as DrillName[],
    progress,
    signal,
  });
  const dir = join(repoRoot(), 'test-artifacts', 'chaos');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `drill-${mode}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));
  console.log(
    `\nRecovery drills, ${mode} (seed ${report.seed}) — ${(report.durationMs / 1000).toFixed(0)} s\n`,
  );
  console.log(report.table);
  for (const failure of report.failures) console.log(`✗ ${failure}`);
  for (const crash of report.crashes) console.log(`✗ crash: ${crash}`);
  if (report.error) console.log(`\n✗ drill stopped early: ${report.error}`);
  console.log(
    `\n${report.passed ? 'PASS' : 'FAIL'} — report: ${file}${report.runDirKept ? `; kept: ${report.runDir}` : ''}`,
  );
  return report.passed ? 0 : 1;
}

async function up(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      identity: { type: 'string', default: '1' },
      questions: { type: 'string', default: '1' },
      payments: { type: 'string', default: '1' },
      support: { type: 'string', default: '1' },
    },
  });
  const signal = abortOnSignals();
  const topology = await Topology.start({
    progress,
    instances: {
      identity: Number(values.identity),
      questions: Number(values.questions),
      payments: Number(values.payments),
      support: Number(values.support),
    },
  });
  console.log(`\nQues (plain processes) at ${topology.bffUrl}`);
  console.log(
    `database ${topology.database!.url}, NATS ${topology.natsUrl}, namespace ${topology.namespace}`,
  );
  console.log(`logs ${topology.logDir}, mail ${topology.mailDir}`);
  for (const name of topology.names()) console.log(`  ${name.padEnd(12)} pid ${topology.get(name).pid}`);
  console.log('Ctrl-C stops everything and drops the database.');
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  const problems = await topology.stop();
  for (const problem of problems) console.log(`! cleanup: ${problem}`);
  return topology.crashes.length ? 1 : 0;
}

const [command, ...rest] = process.argv.slice(2);
const commands: Record<string, (args: string[]) => Promise<number>> = {
  run,
  up,
  backup: (args) => opsCommand('backup', args),
  restore: (args) => opsCommand('restore', args),
  republish: (args) => opsCommand('republish', args),
};
const handler = commands[command ?? ''];
if (!handler) {
  console.error(
    'usage: cli.js run [drill] [--short] [--seed N] [--only fault,…] | up [--identity N] [--questions N] [--payments N] [--support N]\n' +
      '       cli.js backup --out DIR | restore --from DIR [--streams] | republish [--from DIR]   (DATABASE_URL, NATS_URL, BUS_NAMESPACE)',
  );
  process.exit(2);
}
handler(rest).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`chaos: ${err.message}`);
    process.exit(1);
  },
);
