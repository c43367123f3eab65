import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { connect } from 'nats';
import { CONTEXTS } from '@ques/contracts';
import { streamName } from '../bus/naming.js';
import { failureLedgerBucket } from '../bus/nats-bus.js';

const LOCAL_NATS = 'nats://127.0.0.1:4222';
let testUrl: Promise<string | null> | null = null;

/** A NATS JetStream server for tests: TEST_NATS_URL, else the local default when it answers within ~1 s, else null. */
export function natsTestUrl(): Promise<string | null> {
  testUrl ??= (async () => {
    const explicit = process.env.TEST_NATS_URL;
    if (explicit) return explicit;
    return (await hasJetStream(LOCAL_NATS)) ? LOCAL_NATS : null;
  })();
  return testUrl;
}

async function hasJetStream(url: string): Promise<boolean> {
  try {
    const nc = await connect({ servers: url, timeout: 1_000, reconnect: false });
    const enabled = nc.info?.jetstream === true;
    await nc.close();
    return enabled;
  } catch {
    return false;
  }
}

/** A namespace no other test file uses: a single subject token, e.g. `t_3f9a0c1b2d`. */
export function uniqueNamespace(prefix = 't'): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** Deletes the streams a namespaced bus created, its handler-failure bucket included (missing ones are fine). */
export async function deleteNamespaceStreams(url: string, namespace: string): Promise<void> {
  const nc = await connect({ servers: url, timeout: 2_000, reconnect: false });
  try {
    const jsm = await nc.jetstreamManager();
    for (const context of CONTEXTS) {
      await jsm.streams.delete(streamName(context, namespace)).catch(() => false);
    }
    await jsm.streams.delete(`KV_${failureLedgerBucket(namespace)}`).catch(() => false);
  } finally {
    await nc.close();
  }
}

/** The nats-server binary: NATS_SERVER_BIN, else `nats-server` on PATH, else /usr/sbin/nats-server; null if none. */
export function natsServerBinary(): string | null {
  const candidates = [
    process.env.NATS_SERVER_BIN,
    ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'nats-server')),
    '/usr/sbin/nats-server',
  ];
  return candidates.find((c): c is string => !!c && isExecutable(c)) ?? null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface NatsTestServer {
  url: string;
  port: number;
  storeDir: string;
  /** Stops the server (SIGTERM, SIGKILL after 5 s); its JetStream data stays in `storeDir`. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store directory. */
  start(): Promise<void>;
  /** Stops it and deletes the store directory. */
  dispose(): Promise<void>;
}

export interface StartNatsServerOptions {
  /** Defaults to `natsServerBinary()`. */
  binary?: string;
  /** How long to wait for the port to accept connections. Default 10 s. */
  readyTimeoutMs?: number;
}

/** Spawns a private nats-server with JetStream (one per test that needs to stop and restart it). */
export async function startNatsServer(opts: StartNatsServerOptions = {}): Promise<NatsTestServer> {
  const binary = opts.binary ?? natsServerBinary();
  if (!binary) throw new Error('nats-server not found: set NATS_SERVER_BIN or put nats-server on PATH');
  const readyTimeoutMs = opts.readyTimeoutMs ?? 10_000;
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'ques-nats-'));
  let child: ChildProcess | null = null;
  // A test that crashes must not leave a server behind.
  const killOnExit = () => child?.kill('SIGKILL');
  process.on('exit', killOnExit);

  const start = async () => {
    if (child) return;
    let output = '';
    const proc = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4_000)));
    proc.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4_000)));
    child = proc;
    const exited = new Promise<never>((_, reject) =>
      proc.once('exit', (code, signal) => reject(new Error(`nats-server exited (code ${code}, signal ${signal}) before accepting connections:\n${output}`))),
    );
    exited.catch(() => {});
    proc.once('exit', () => {
      if (child === proc) child = null;
    });
    try {
      await Promise.race([waitForPort(port, readyTimeoutMs), exited]);
    } catch (err) {
      proc.kill('SIGKILL');
      child = null;
      throw err;
    }
  };

  const stop = async () => {
    const proc = child;
    if (!proc) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const forced = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(forced);
    child = null;
  };

  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    start,
    stop,
    async dispose() {
      await stop();
      process.off('exit', killOnExit);
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not get a free port'))));
    });
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await accepts(port)) return;
    if (Date.now() > deadline) throw new Error(`nats-server did not accept connections on port ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}
