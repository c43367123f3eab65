import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { guestAsk, type Account, type BffClient, type Topology } from '@ques/chaos';
import { measureProcesses } from './cpu-account.js';

// The latency bench's load helpers (./latency.ts): the background inbox reads, and the CPU one ask and one read cost.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * What one ask and one inbox read cost the topology in CPU, ms per process (its services, the BFF, nats-server and the
 * database's Postgres backends), each measured alone before the ask → inbox row, with what the processes spend idle
 * (polls, timers) over the same time taken off (ADR 0050); and the cores the bar's load (ASK_RATE asks/s with
 * READ_RATE reads/s) needs at those costs. The load generators are not counted.
 */
export interface AskCosts {
  perAskMs: Record<string, number | null>;
  perReadMs: Record<string, number | null>;
  askTotalMs: number;
  readTotalMs: number;
  coresAtBar: number;
  cores: number;
}

interface ReadLoadResult {
  requests: number;
  perSec: number;
  non2xx: number;
  errors: number;
}

/** The background inbox reads, at a fixed overall rate, in a child process (src/read-load.ts). */
export function readLoad(url: string, token: string, rate: number, seconds: number): Promise<ReadLoadResult> {
  const script = fileURLToPath(new URL('./read-load.js', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      script,
      JSON.stringify({ url, rate, seconds, connections: 32, headers: { authorization: `Bearer ${token}` } }),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let result: ReadLoadResult | null = null;
    createInterface({ input: child.stdout }).once('line', (line) => {
      result = JSON.parse(line) as ReadLoadResult;
      resolve(result);
    });
    // Ending without its line (however it ended) must fail the row, not leave the bench waiting forever. `close`
    // comes after stdout has been read to its end, so a line printed just before the exit is not missed.
    child.once('close', (code, signal) => {
      if (!result) reject(new Error(`read load exited with ${code ?? signal} before reporting`));
    });
  });
}

/** Asks per second and seconds of the ask-cost window: a rate this machine keeps up with, so nothing queues. */
export const COST_ASK_RATE = 20;
const COST_SECONDS = 3;
const COST_IDLE_MS = 3_000;
const COST_SETTLE_MS = 5_000;

export async function askCosts(
  client: BffClient,
  owner: Account,
  topology: Topology,
  bar: { askRate: number; readRate: number },
): Promise<AskCosts | null> {
  const processes: Record<string, number | undefined> = { nats: topology.nats.pid };
  for (const name of topology.names()) processes[name] = topology.get(name).pid;
  const database = topology.database?.name ?? null;
  const inbox = `${client.base}/api/questions?role=receiver&limit=50`;
  // What the processes spend doing nothing asked of them (polls, timers), taken off both windows by their length;
  // measured once the work before it (the tipped questions' settle jobs and mails) has drained.
  await sleep(COST_SETTLE_MS);
  let idleStarted = performance.now();
  const idle = await measureProcesses(processes, database, () => sleep(COST_IDLE_MS));
  const idleSeconds = (performance.now() - idleStarted) / 1000;
  const busy = async <T>(work: () => Promise<T>) => {
    idleStarted = performance.now();
    const measured = await measureProcesses(processes, database, work);
    const seconds = (performance.now() - idleStarted) / 1000;
    const cpuMs: Record<string, number | null> = {};
    for (const [name, ms] of Object.entries(measured.cpuMs)) {
      const idleMs = idle.cpuMs[name];
      cpuMs[name] =
        ms === null || idleMs === null || idleMs === undefined
          ? ms
          : Math.max(0, ms - (idleMs / idleSeconds) * seconds);
    }
    return { result: measured.result, cpuMs };
  };
  const reads = await busy(() => readLoad(inbox, owner.token, bar.readRate, COST_SECONDS));
  let asked = 0;
  const asks = await busy(async () => {
    const sent: Promise<void>[] = [];
    const started = performance.now();
    for (let n = 0; n < COST_ASK_RATE * COST_SECONDS; n++) {
      const wait = started + (n * 1000) / COST_ASK_RATE - performance.now();
      if (wait > 0) await sleep(wait);
      sent.push(
        client
          .send(
            'POST',
            '/api/questions',
            {
              json: guestAsk(owner, `Cost ask ${n}: what does it take?`, `cost.${n}@bench.example`),
              idempotencyKey: randomUUID(),
            },
            10_000,
          )
          .then((r) => void (r.status === 201 && (asked += 1))),
      );
    }
    await Promise.all(sent);
    // The other services' share (consumers, the relay, mail) follows the answer: let it finish inside the window.
    await sleep(1_000);
  });
  if (asked === 0 || reads.result.requests === 0) return null;
  const per = (cpuMs: Record<string, number | null>, count: number) =>
    Object.fromEntries(
      Object.entries(cpuMs).map(([name, ms]) => [
        name,
        ms === null ? null : Math.round((ms * 100) / count) / 100,
      ]),
    );
  const total = (perMs: Record<string, number | null>) =>
    Math.round(Object.values(perMs).reduce<number>((sum, ms) => sum + (ms ?? 0), 0) * 100) / 100;
  const perAskMs = per(asks.cpuMs, asked);
  const perReadMs = per(reads.cpuMs, reads.result.requests);
  if (Object.values(perAskMs).every((ms) => ms === null)) return null;
  const askTotalMs = total(perAskMs);
  const readTotalMs = total(perReadMs);
  return {
    perAskMs,
    perReadMs,
    askTotalMs,
    readTotalMs,
    coresAtBar: Math.round(((bar.askRate * askTotalMs + bar.readRate * readTotalMs) / 1000) * 100) / 100,
    cores: availableParallelism(),
  };
}
