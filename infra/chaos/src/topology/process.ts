import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { sleep } from '../util.js';

/** How one start of a process ended. */
export interface ExitRecord {
  process: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  at: Date;
  /** The harness asked for it (kill -9, SIGTERM, stop). */
  requested: NodeJS.Signals | null;
  /** Requested and ended as asked: killed by the signal, or exit code 0 after SIGTERM. Anything else is a crash. */
  clean: boolean;
  /** Still running when SIGTERM's grace period ran out, then killed. */
  hung: boolean;
  /** From the signal to the exit (null when nobody sent one). */
  stopMs: number | null;
  /** The last lines of the process's log, for the report. */
  logTail: string;
}

export interface ManagedProcessOptions {
  /** `questions#2`, `nats` … */
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  logFile: string;
  /** GET this URL answers 200 when the process is ready (services and the BFF: `/ready`); none: ready once spawned. */
  readyUrl?: string;
  /** Called for every exit the harness did not ask for, or that did not end as asked (a crash). */
  onCrash: (record: ExitRecord) => void;
}

/**
 * One child process: output appended to its own log file (the file descriptor is handed to the child, so lines keep
 * flowing even if the harness is busy), every exit recorded, and an exit nobody asked for reported as a crash.
 */
export class ManagedProcess {
  private child: ChildProcess | null = null;
  private requested: NodeJS.Signals | null = null;
  /** A SIGTERM that had to be followed by SIGKILL. */
  private hung = false;
  private signalledAt = 0;
  private exited: Promise<ExitRecord> | null = null;
  readonly exits: ExitRecord[] = [];
  starts = 0;

  constructor(readonly opts: ManagedProcessOptions) {}

  get name(): string {
    return this.opts.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== null;
  }

  start(): void {
    if (this.child) throw new Error(`${this.name} is already running (pid ${this.child.pid})`);
    this.starts += 1;
    const fd = openSync(this.opts.logFile, 'a');
    writeSync(
      fd,
      `\n----- chaos: start #${this.starts} of ${this.name} at ${new Date().toISOString()} -----\n`,
    );
    let child: ChildProcess;
    try {
      child = spawn(this.opts.command, this.opts.args, { env: this.opts.env, stdio: ['ignore', fd, fd] });
    } finally {
      closeSync(fd); // the child holds its own copy
    }
    this.child = child;
    this.requested = null;
    this.hung = false;
    this.exited = new Promise<ExitRecord>((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.child !== child) return;
        this.child = null;
        const requested = this.requested;
        const clean =
          requested !== null &&
          !this.hung &&
          (signal === requested || (requested === 'SIGTERM' && code === 0));
        const record: ExitRecord = {
          process: this.name,
          code,
          signal,
          at: new Date(),
          requested,
          clean,
          hung: this.hung,
          stopMs: requested ? Date.now() - this.signalledAt : null,
          logTail: this.logTail(),
        };
        this.exits.push(record);
        if (!clean) this.opts.onCrash(record);
        resolve(record);
      };
      child.once('exit', finish);
      // spawn failures (ENOENT) emit 'error' and maybe no 'exit'.
      child.once('error', (err) => {
        writeSyncSafe(this.opts.logFile, `chaos: spawn error: ${err.message}\n`);
        finish(null, null);
      });
    });
  }

  /** Polls the ready URL until it answers 200; fails early, with the log's tail, if the process exits. */
  async waitReady(timeoutMs = 30_000): Promise<void> {
    const url = this.opts.readyUrl;
    if (!url) return;
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer yet';
    for (;;) {
      if (!this.child) {
        const exit = this.exits.at(-1);
        throw new Error(
          `${this.name} exited before it was ready (code ${exit?.code ?? '?'}, signal ${exit?.signal ?? 'none'}); last log lines:\n${exit?.logTail ?? ''}`,
        );
      }
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
        const text = await res.text();
        if (res.status === 200) return;
        last = `${res.status} ${text.slice(0, 200)}`;
      } catch (err) {
        last = (err as Error).message;
      }
      if (Date.now() > deadline)
        throw new Error(
          `${this.name} not ready at ${url} within ${timeoutMs} ms (last: ${last}); log: ${this.opts.logFile}`,
        );
      await sleep(100);
    }
  }

  /**
   * Sends `signal` and waits for the exit. SIGTERM that does not end the process within `timeoutMs` (Kubernetes'
   * default grace period) is followed by SIGKILL, and the exit is then not clean: a shutdown that hangs is a defect.
   */
  async stop(signal: 'SIGKILL' | 'SIGTERM' = 'SIGTERM', timeoutMs = 30_000): Promise<ExitRecord | null> {
    const child = this.child;
    const exited = this.exited;
    if (!child || !exited) return null;
    this.requested = signal;
    this.signalledAt = Date.now();
    child.kill(signal);
    const timer = setTimeout(() => {
      if (this.child === child) {
        writeSyncSafe(
          this.opts.logFile,
          `chaos: ${this.name} still running ${timeoutMs} ms after ${signal}; SIGKILL\n`,
        );
        this.hung = true;
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Synchronous last resort (process 'exit' handler): no waiting, no records. */
  killNow(): void {
    if (!this.child) return;
    this.requested = 'SIGKILL';
    this.signalledAt = Date.now();
    this.child.kill('SIGKILL');
  }

  /** The last ~80 lines of the log (enough for a Node stack trace after an unhandled error). */
  logTail(bytes = 12_000): string {
    try {
      const size = statSync(this.opts.logFile).size;
      const length = Math.min(bytes, size);
      const buffer = Buffer.alloc(length);
      const fd = openSync(this.opts.logFile, 'r');
      try {
        readSync(fd, buffer, 0, length, size - length);
      } finally {
        closeSync(fd);
      }
      return buffer.toString('utf8').split('\n').slice(-80).join('\n');
    } catch {
      return '';
    }
  }
}

function writeSyncSafe(file: string, text: string): void {
  try {
    const fd = openSync(file, 'a');
    writeSync(fd, text);
    closeSync(fd);
  } catch {
    // the log is best effort
  }
}
