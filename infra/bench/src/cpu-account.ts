/**
 * CPU accounting for the pipeline bench (ADR 0050): how much CPU a piece of work costs this process and the Postgres
 * backends serving one database, read from /proc, so a throughput figure comes with its cost per event and the
 * machine's ceiling can be worked out from it. Linux only; elsewhere every reading is null.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux x86_64 and arm64

/** utime + stime of a process in ms, or null when it is gone (or there is no /proc). */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** The pids of the Postgres backends connected to `database` (their process title names it). */
function backendsOf(database: string): number[] {
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  const marker = ` ${database} `;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export interface CpuReading {
  /** This process (every thread, the decrypt worker included), ms. */
  nodeMs: number;
  /** The Postgres backends of the database, ms; null without /proc. */
  postgresMs: number | null;
}

/**
 * Measures the CPU `work` costs this process and the database's backends. Backends are sampled every 100 ms (a
 * backend that ends is counted up to its last sample; one that starts counts from zero), so connections a pool opens
 * and closes during the work are included.
 */
export async function measureCpu<T>(database: string, work: () => Promise<T>): Promise<{ result: T; cpu: CpuReading }> {
  const start = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = (first: boolean) => {
    for (const pid of backendsOf(database)) {
      const ms = processCpuMs(pid);
      if (ms === null) continue;
      if (first) start.set(pid, ms);
      else if (!start.has(pid)) start.set(pid, 0);
      last.set(pid, ms);
    }
  };
  const proc = existsProc();
  if (proc) sample(true);
  const timer = proc ? setInterval(() => sample(false), 100) : undefined;
  const before = process.cpuUsage();
  try {
    const result = await work();
    const used = process.cpuUsage(before);
    let postgresMs: number | null = null;
    if (proc) {
      sample(false);
      // No backend seen: the server is not on this machine (TEST_DATABASE_URL elsewhere), so nothing to read.
      if (last.size > 0) {
        postgresMs = 0;
        for (const [pid, ms] of last) postgresMs += ms - (start.get(pid) ?? 0);
      }
    }
    return { result, cpu: { nodeMs: (used.user + used.system) / 1000, postgresMs } };
  } finally {
    if (timer) clearInterval(timer);
  }
}

function existsProc(): boolean {
  return processCpuMs(process.pid) !== null;
}

/**
 * The CPU named processes and one database's backends spend during a piece of work, in ms each (`postgres` for the
 * backends; null for a process that is gone or without /proc). Used by the latency bench to cost an ask and an inbox
 * read across the topology's processes (ADR 0050).
 */
export async function measureProcesses<T>(
  processes: Record<string, number | undefined>,
  database: string | null,
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: Record<string, number | null> }> {
  const before = new Map(Object.entries(processes).map(([name, pid]) => [name, pid === undefined ? null : processCpuMs(pid)]));
  const { result, cpu } = database ? await measureCpu(database, work) : { result: await work(), cpu: { postgresMs: null } };
  const cpuMs: Record<string, number | null> = {};
  for (const [name, pid] of Object.entries(processes)) {
    const start = before.get(name);
    const end = pid === undefined ? null : processCpuMs(pid);
    cpuMs[name] = start === null || start === undefined || end === null ? null : end - start;
  }
  cpuMs.postgres = cpu.postgresMs;
  return { result, cpuMs };
}
