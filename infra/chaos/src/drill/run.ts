import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { keepRunDir } from '../config.js';
import type { Mode } from '../faults.js';
import { createCast } from '../load/cast.js';
import { BffClient } from '../load/client.js';
import { seededRandom, type LoadPlan } from '../load/workload.js';
import { crashSummary } from '../topology/crash.js';
import { Topology } from '../topology/topology.js';
import type { DrillContext, DrillRow } from './context.js';
import { restoreDrill } from './restore.js';
import { streamLossDrill } from './stream-loss.js';

export type DrillName = 'stream-loss' | 'restore';
export const DRILLS: DrillName[] = ['stream-loss', 'restore'];

export interface DrillOptions {
  mode: Mode;
  seed?: number;
  only?: DrillName[];
  progress?: (line: string) => void;
  signal?: AbortSignal;
}

export interface DrillReport {
  mode: Mode;
  seed: number;
  durationMs: number;
  rows: DrillRow[];
  table: string;
  failures: string[];
  crashes: string[];
  passed: boolean;
  error: string | null;
  runDir: string;
  runDirKept: boolean;
}

const SETTINGS: Record<
  Mode,
  { plan: LoadPlan; cast: { owners: number; askers: number }; quiescenceTimeoutMs: number }
> = {
  // The CI form: a dozen asks a phase, two owners; well under a minute after the topology is up.
  short: {
    plan: { opsPerSecond: 6, maxInFlight: 12, minOps: 12, callDeadlineMs: 45_000 },
    cast: { owners: 2, askers: 2 },
    quiescenceTimeoutMs: 60_000,
  },
  long: {
    plan: { opsPerSecond: 8, maxInFlight: 48, minOps: 250, callDeadlineMs: 90_000 },
    cast: { owners: 6, askers: 10 },
    quiescenceTimeoutMs: 120_000,
  },
};

export function formatDrillTable(rows: DrillRow[]): string {
  const time = (ms: number | null) => (ms === null ? '' : `${(ms / 1000).toFixed(1)} s`);
  const w1 = Math.max(5, ...rows.map((r) => r.drill.length));
  const w2 = Math.max(4, ...rows.map((r) => r.step.length));
  const lines = [`${'drill'.padEnd(w1)}  ${'step'.padEnd(w2)}  ${'time'.padStart(8)}  figures`];
  lines.push('-'.repeat(Math.min(160, w1 + w2 + 22)));
  for (const r of rows)
    lines.push(`${r.drill.padEnd(w1)}  ${r.step.padEnd(w2)}  ${time(r.ms).padStart(8)}  ${r.detail}`);
  return lines.join('\n');
}

/**
 * `npm run chaos -- drill`: the stream-loss drill, then the backup-and-restore drill, on one plain-process topology
 * (a fresh database and a private nats-server, as the fault suite). Always stops the topology and drops the database.
 */
export async function runDrills(opts: DrillOptions): Promise<DrillReport> {
  const settings = SETTINGS[opts.mode];
  const seed = opts.seed ?? randomBytes(4).readUInt32BE(0);
  const progress = opts.progress ?? (() => {});
  const started = Date.now();
  const tag = randomBytes(3).toString('hex');
  progress(`drills ${opts.mode}, seed ${seed}, tag ${tag}`);
  opts.signal?.throwIfAborted();
  const topology = await Topology.start({ progress });
  const onAbort = () => void topology.stop({ keepRunDir: true });
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const rows: DrillRow[] = [];
  const failures: string[] = [];
  let error: unknown = null;
  try {
    const cast = await createCast(new BffClient(topology.bffUrl, undefined, opts.signal), tag, settings.cast);
    const ctx: DrillContext = {
      topology,
      cast,
      tag,
      plan: settings.plan,
      random: seededRandom(seed),
      quiescenceTimeoutMs: settings.quiescenceTimeoutMs,
      backupDir: join(topology.runDir, 'backup'),
      progress,
      signal: opts.signal,
      rows,
      failures,
    };
    const only = opts.only?.length ? opts.only : DRILLS;
    if (only.includes('stream-loss')) await streamLossDrill(ctx);
    if (only.includes('restore')) await restoreDrill(ctx);
  } catch (err) {
    error = opts.signal?.aborted ? (opts.signal.reason ?? err) : err;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
  const crashes = topology.crashes.map((c) => {
    const s = crashSummary(c);
    return `${s.process}: ${s.reason}`;
  });
  const passed = !error && failures.length === 0 && crashes.length === 0;
  const keep = !passed || keepRunDir();
  await topology.stop({ keepRunDir: keep, keepDatabase: keepRunDir() });
  return {
    mode: opts.mode,
    seed,
    durationMs: Date.now() - started,
    rows,
    table: formatDrillTable(rows),
    failures,
    crashes,
    passed,
    error: error ? (error as Error).message : null,
    runDir: topology.runDir,
    runDirKept: keep,
  };
}
