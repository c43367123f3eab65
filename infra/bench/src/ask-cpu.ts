/**
 * CPU per guest ask, per process of the distributed topology (ADR 0049): identity, questions, payments, support, the
 * BFF, nats-server and the Postgres backends of the topology's database, from /proc/<pid>/stat (utime + stime), which
 * does not depend on how busy the machine is the way wall figures do.
 *
 * `node dist/ask-cpu.js` starts the topology once, then for each side named in ASKCPU_SIDES (default "current") runs
 * `ASKCPU_SWAP <side>` (a shell command that puts that side's build in place, when set), restarts every service and the
 * BFF on it, sends warm-up asks, measures an idle window, then ASKCPU_ASKS guest asks (default 200) at ASKCPU_RATE a
 * second (default 10) through the BFF, waits ASKCPU_SETTLE_MS (default 3 s) for the relay, consumers and mail jobs,
 * and prints the CPU per ask of each process with the idle rate taken off, and Postgres's split by the service whose
 * connections used it (application_name). Same database and NATS for every side.
 */
import { execSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { BffClient, createCast, guestAsk, Topology } from '@ques/chaos';
import { processCpuMs } from './cpu-account.js';

const SIDES = (process.env.ASKCPU_SIDES ?? 'current').split(',').filter(Boolean);
const SWAP = process.env.ASKCPU_SWAP;
const ASKS = Number(process.env.ASKCPU_ASKS ?? 200);
const RATE = Number(process.env.ASKCPU_RATE ?? 10);
const SETTLE_MS = Number(process.env.ASKCPU_SETTLE_MS ?? 3_000);
const IDLE_MS = Number(process.env.ASKCPU_IDLE_MS ?? 5_000);
const WARMUP = Number(process.env.ASKCPU_WARMUP ?? 30);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** A process's CPU so far, ms (0 when it is gone). */
const cpuMs = (pid: number) => processCpuMs(pid) ?? 0;

async function main(): Promise<void> {
  // ASKCPU_NODE_OPTIONS: given to every service (not the BFF). Node 20 refuses `--cpu-prof` there; for profiles of the
  // run use `--require <bench>/scripts/cpu-profile-on-signal.cjs` and send SIGUSR2 to start and again to write one.
  const serviceEnv: Record<string, string> = process.env.ASKCPU_NODE_OPTIONS ? { NODE_OPTIONS: process.env.ASKCPU_NODE_OPTIONS } : {};
  const topology = await Topology.start({ logLevel: 'warn', readyTimeoutMs: 120_000, serviceEnv, progress: (l) => console.error(`  ${l}`) });
  const db = new pg.Client({ connectionString: topology.database!.url });
  await db.connect();
  const dbName = topology.database!.name;
  try {
    const client = new BffClient(topology.bffUrl);
    const cast = await createCast(client, `askcpu${Date.now().toString(36)}`, { owners: 1, askers: 0 });
    const owner = cast.owners[0]!;
    let n = 0;
    const askOnce = async () => {
      const i = n++;
      const res = await client.send(
        'POST',
        '/api/questions',
        { json: guestAsk(owner, `CPU ask ${i}: how much does it cost?`, `cpu.${i}@bench.example`), idempotencyKey: randomUUID() },
        30_000,
      );
      if (res.status !== 201) throw new Error(`ask answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    };
    const processes = () => [...topology.names(), 'nats'].map((name) => ({ name: name.replace(/#1$/, ''), pid: topology.get(name).pid! }));
    // Each service's pool names its connections after its schema (application_name): Postgres's CPU by service.
    const backends = async () =>
      (
        await db.query<{ pid: number; app: string }>(
          'SELECT pid, application_name AS app FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [dbName],
        )
      ).rows;
    const snapshot = async () => {
      const per = new Map<string, number>();
      for (const p of processes()) per.set(p.name, cpuMs(p.pid));
      const pgTicks = new Map((await backends()).map(({ pid, app }) => [pid, { app: app || 'other', ms: cpuMs(pid) }]));
      return { per, pgTicks };
    };
    /** CPU used between two snapshots per process, `postgres` for all backends, and `pg:<service>` for each service's. */
    const diff = (a: Awaited<ReturnType<typeof snapshot>>, b: Awaited<ReturnType<typeof snapshot>>) => {
      const out = new Map<string, number>();
      for (const [name, t] of b.per) out.set(name, t - (a.per.get(name) ?? t));
      let pgMs = 0;
      const byApp = new Map<string, number>();
      for (const [pid, { app, ms }] of b.pgTicks) {
        const used = ms - (a.pgTicks.get(pid)?.ms ?? 0);
        pgMs += used;
        byApp.set(`pg:${app}`, (byApp.get(`pg:${app}`) ?? 0) + used);
      }
      out.set('postgres', pgMs);
      for (const [app, ms] of [...byApp].sort()) out.set(app, ms);
      return out;
    };

    const rows: string[] = [];
    for (const side of SIDES) {
      if (SWAP) execSync(`${SWAP} ${side}`, { stdio: 'inherit' });
      for (const name of topology.names()) {
        await topology.signal(name, 'SIGTERM');
        await topology.restart(name);
      }
      await topology.allReady();
      for (let i = 0; i < WARMUP; i++) await askOnce();
      await sleep(SETTLE_MS);
      const idle0 = await snapshot();
      const idleStart = performance.now();
      await sleep(IDLE_MS);
      const idle = diff(idle0, await snapshot());
      const idleSec = (performance.now() - idleStart) / 1000;
      const load = loadavg()[0]!.toFixed(2);
      // ASKCPU_SIGNAL_QUESTIONS: a signal sent to questions as the measured asks begin (a profiler's start, say).
      if (process.env.ASKCPU_SIGNAL_QUESTIONS) process.kill(topology.get(topology.names('questions')[0]!).pid!, process.env.ASKCPU_SIGNAL_QUESTIONS);
      const before = await snapshot();
      const started = performance.now();
      const inFlight: Promise<void>[] = [];
      let failed = 0;
      for (let i = 0; i < ASKS; i++) {
        const wait = started + (i * 1000) / RATE - performance.now();
        if (wait > 0) await sleep(wait);
        inFlight.push(askOnce().catch(() => void (failed += 1)));
      }
      await Promise.all(inFlight);
      await sleep(SETTLE_MS);
      const used = diff(before, await snapshot());
      const windowSec = (performance.now() - started) / 1000;
      const loadAfter = loadavg()[0]!.toFixed(2);
      let total = 0;
      const cells: string[] = [];
      const pgCells: string[] = [];
      for (const [name, ms] of used) {
        const net = (ms - ((idle.get(name) ?? 0) / idleSec) * windowSec) / ASKS;
        if (name.startsWith('pg:')) {
          pgCells.push(`${name.slice(3)} ${net.toFixed(2)}`);
          continue;
        }
        total += net;
        cells.push(`${name} ${net.toFixed(2)}`);
      }
      const row =
        `${side}: ms CPU per ask (idle taken off): ${cells.join(', ')}; total ${total.toFixed(2)} | ${ASKS} asks at ${RATE}/s, ${failed} failed, load ${load} → ${loadAfter}\n` +
        `  postgres by service's connections: ${pgCells.join(', ')}`;
      rows.push(row);
      console.log(row);
    }
    console.log('\n' + rows.join('\n'));
  } finally {
    await db.end();
    await topology.stop({});
  }
}

await main();
