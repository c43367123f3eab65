import { randomBytes } from 'node:crypto';
import { backlogIsEmpty, checkPhase, deadLetterCount, readBacklog, type Backlog } from './checks.js';
import { keepRunDir } from './config.js';
import { FAULTS, type Fault, type FaultContext, type Mode } from './faults.js';
import { createCast, refreshCast, type Cast } from './load/cast.js';
import { BffClient } from './load/client.js';
import { PhaseLoad, seededRandom, type AskRecord, type LoadPlan } from './load/workload.js';
import { failuresOf, formatFindings, formatTable, type PhaseResult } from './report.js';
import { crashSummary, type CrashSummary } from './topology/crash.js';
import { Topology } from './topology/topology.js';
import { pollUntil } from './util.js';

export interface ChaosOptions {
  mode: Mode;
  /** Seeds the mix of asks and follow-ups (default: random, printed). */
  seed?: number;
  /** Run only these faults (names from FAULTS). */
  only?: string[];
  progress?: (line: string) => void;
  /** Aborting stops the topology at once and makes the run reject. */
  signal?: AbortSignal;
}

export interface ChaosReport {
  mode: Mode;
  seed: number;
  durationMs: number;
  phases: PhaseResult[];
  /** Crashes before the first phase (while the cast was set up). */
  setupCrashes: CrashSummary[];
  passed: boolean;
  table: string;
  findings: string;
  /** Logs, mail and the NATS store; kept when the run failed or CHAOS_KEEP=1, else removed. */
  runDir: string;
  runDirKept: boolean;
  /** Dropped at the end unless CHAOS_KEEP=1. */
  database: string;
  cleanupProblems: string[];
  /** Why the run stopped before its end (setup failed, a phase could not start, aborted); null when it ran through. */
  error: string | null;
}

interface ModeSettings {
  rounds: number;
  plan: LoadPlan;
  cast: { owners: number; askers: number };
  quiescenceTimeoutMs: number;
}

const SETTINGS: Record<Mode, ModeSettings> = {
  // A few hundred asks, each fault once: about two minutes.
  short: {
    rounds: 1,
    plan: { opsPerSecond: 4, maxInFlight: 16, minOps: 30, callDeadlineMs: 45_000 },
    cast: { owners: 3, askers: 4 },
    quiescenceTimeoutMs: 60_000,
  },
  // Thousands of asks, each fault three times with different targets: for releases.
  long: {
    rounds: 3,
    plan: { opsPerSecond: 8, maxInFlight: 48, minOps: 250, callDeadlineMs: 90_000 },
    cast: { owners: 6, askers: 10 },
    quiescenceTimeoutMs: 120_000,
  },
};

const describeBacklog = (b: Backlog, js: { pending: number; ackPending: number } | string) =>
  [
    `outbox ${b.outboxUnpublished}`,
    `tips mid-settlement ${b.tipsInFlight}`,
    `jobs due ${b.jobsDue}`,
    `accepted not visible ${b.acceptedNotVisible}`,
    `wrong state ${b.wrongState}`,
    typeof js === 'string' ? `JetStream: ${js}` : `JetStream pending ${js.pending}, unacked ${js.ackPending}`,
  ].join(', ');

/**
 * Waits until the system owes nothing: every process ready, outboxes empty, consumers caught up, every accepted ask
 * visible, every answer and withdrawal reflected, every tip in one agreed state. Returns how long that took, or null.
 */
export async function waitForQuiescence(
  topology: Topology,
  tag: string,
  records: AskRecord[],
  phase: string,
  timeoutMs: number,
  signal?: AbortSignal,
) {
  const started = Date.now();
  let last = 'not checked yet';
  let first: string | null = null;
  try {
    await pollUntil(
      async () => {
        await topology.allReady();
        const backlog = await readBacklog(topology.database!.url, tag, phase, records);
        let js: { pending: number; ackPending: number } | string;
        try {
          js = await topology.backlog();
        } catch (err) {
          js = `unreachable (${(err as Error).message})`;
        }
        last = describeBacklog(backlog, js);
        first ??= last;
        return backlogIsEmpty(backlog) && typeof js !== 'string' && js.pending === 0 && js.ackPending === 0;
      },
      { timeoutMs, intervalMs: 250, message: () => last, signal },
    );
    return { ms: Date.now() - started, remaining: '', owedAtStart: first ?? last };
  } catch {
    signal?.throwIfAborted();
    return { ms: null, remaining: last, owedAtStart: first ?? last };
  }
}

async function runPhase(
  topology: Topology,
  cast: Cast,
  fault: Fault,
  ctx: FaultContext,
  settings: ModeSettings,
  tag: string,
  random: () => number,
): Promise<PhaseResult> {
  const phase = ctx.mode === 'long' ? `${fault.name}.${ctx.round}` : fault.name;
  const started = new Date();
  const crashesBefore = topology.crashes.length;
  await topology.allReady();
  await refreshCast(new BffClient(topology.bffUrl, undefined, ctx.signal), cast);
  const deadLettersBefore = await deadLetterCount(topology.database!.url);
  await fault.before?.(ctx);

  const factor = fault.loadFactor ?? 1;
  const plan = {
    ...settings.plan,
    opsPerSecond: settings.plan.opsPerSecond * factor,
    maxInFlight: settings.plan.maxInFlight * factor,
  };
  // The phase's own stop: if the fault or the warm-up fails, the clients must not go on retrying in the background.
  const halt = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, halt.signal]) : halt.signal;
  const load = new PhaseLoad(topology.bffUrl, cast, phase, tag, plan, random, signal);
  load.start();
  try {
    // The fault hits a topology that is serving: at least a few asks have gone through.
    await pollUntil(async () => load.accepted >= 3, {
      timeoutMs: 30_000,
      signal,
      message: () =>
        `phase ${phase}: fewer than 3 asks accepted before the fault (${
          load.records
            .map((r) => r.detail)
            .filter(Boolean)
            .slice(-3)
            .join('; ') || 'no answers'
        })`,
    });
    await fault.inject(ctx);
  } catch (err) {
    halt.abort(err);
    await load.finish();
    throw err;
  }
  await load.finish();
  ctx.progress(
    `${phase}: ${load.records.length} asks, ${load.accepted} accepted; waiting for the system to settle`,
  );

  const settled = await waitForQuiescence(
    topology,
    tag,
    load.records,
    phase,
    settings.quiescenceTimeoutMs,
    ctx.signal,
  );
  const figures = await checkPhase(topology.database!.url, tag, phase, load.records, {
    deadLetters: deadLettersBefore,
    at: started,
  });
  await fault.after?.(ctx);
  // Whatever a crashed process's supervisor restart is doing must finish inside the phase it belongs to.
  await topology.allReady();
  const crashes = topology.crashes.slice(crashesBefore).map(crashSummary);
  return {
    phase,
    fault: fault.name,
    title: fault.title,
    round: ctx.round,
    durationMs: Date.now() - started.getTime(),
    figures,
    http: load.stats,
    quiescentAfterMs: settled.ms,
    notQuiescent: settled.remaining,
    owedWhenLoadStopped: settled.owedAtStart,
    crashes,
    failures: failuresOf(figures, crashes.length, settled.ms !== null),
  };
}

/**
 * `npm run chaos`: starts the plain-process topology, signs up a cast, and for each fault runs a phase of
 * concurrent asks, tipped checkouts and answers with the fault injected mid-way, then checks what the databases hold
 * against what the clients were told. Always stops the topology, drops the database and removes the temp folders
 * (kept for inspection when a check failed).
 */
export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const settings = SETTINGS[opts.mode];
  const seed = opts.seed ?? randomBytes(4).readUInt32BE(0);
  const random = seededRandom(seed);
  const tag = randomBytes(3).toString('hex');
  const progress = opts.progress ?? (() => {});
  const faults = opts.only?.length ? FAULTS.filter((f) => opts.only!.includes(f.name)) : FAULTS;
  if (faults.length === 0)
    throw new Error(
      `no fault named ${opts.only?.join(', ')} (have: ${FAULTS.map((f) => f.name).join(', ')})`,
    );
  const startedAt = Date.now();
  progress(`chaos ${opts.mode} run, seed ${seed}, tag ${tag}`);

  opts.signal?.throwIfAborted();
  const topology = await Topology.start({ progress });
  const onAbort = () => void topology.stop({ keepRunDir: true });
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const phases: PhaseResult[] = [];
  let setupCrashes: CrashSummary[] = [];
  let error: unknown = null;
  try {
    const cast = await createCast(new BffClient(topology.bffUrl, undefined, opts.signal), tag, settings.cast);
    setupCrashes = topology.crashes.map(crashSummary);
    progress(
      `cast ready: ${cast.owners.length} owners with tipping on, ${cast.askers.length} signed-in askers`,
    );
    for (let round = 1; round <= settings.rounds; round++) {
      for (const fault of faults) {
        opts.signal?.throwIfAborted();
        const ctx: FaultContext = { topology, mode: opts.mode, round, progress, signal: opts.signal };
        progress(
          `── ${fault.name}${settings.rounds > 1 ? ` (round ${round}/${settings.rounds})` : ''}: ${fault.title}`,
        );
        const result = await runPhase(topology, cast, fault, ctx, settings, tag, random);
        phases.push(result);
        progress(
          `${result.phase}: ${result.failures.length ? `FAILED (${result.failures.join(', ')})` : 'ok'}; accepted ${result.figures.accepted}, present ${result.figures.present}, ` +
            `settled ${result.quiescentAfterMs === null ? 'never' : `after ${(result.quiescentAfterMs / 1000).toFixed(1)} s`}, crashes ${result.crashes.length}`,
        );
      }
    }
  } catch (err) {
    // Interrupted: whatever failed afterwards failed because the topology was stopped; say why it was.
    error = opts.signal?.aborted ? (opts.signal.reason ?? err) : err;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
  const passed =
    !error && setupCrashes.length === 0 && phases.length > 0 && phases.every((p) => p.failures.length === 0);
  // Logs are kept when a check failed; the database (and NATS store) only when asked, the server is shared.
  const keep = !passed || keepRunDir();
  const cleanupProblems = await topology.stop({ keepRunDir: keep, keepDatabase: keepRunDir() });
  return {
    mode: opts.mode,
    seed,
    durationMs: Date.now() - startedAt,
    phases,
    setupCrashes,
    passed,
    table: formatTable(phases),
    findings: formatFindings(phases),
    runDir: topology.runDir,
    runDirKept: keep,
    database: topology.database?.url ?? '',
    cleanupProblems,
    error: error ? (error as Error).message : null,
  };
}
