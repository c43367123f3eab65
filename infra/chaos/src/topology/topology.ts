import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  childBaseEnv,
  childLogLevel,
  natsServerBinary,
  postgresServerUrl,
  repoRoot,
  runDirParent,
} from '../config.js';
import { freePort, sleep } from '../util.js';
import { TcpBalancer } from './balancer.js';
import { crashSummary } from './crash.js';
import { consumerBacklog, type ConsumerBacklog } from './jetstream.js';
import {
  createDatabase,
  dropAbandonedDatabases,
  dropDatabase,
  terminateBackends,
  type ChaosDatabase,
} from './postgres.js';
import { ManagedProcess, type ExitRecord } from './process.js';
import { generateSecrets, type TopologySecrets } from './secrets.js';

export type { TopologySecrets };

export type ServiceKind = 'identity' | 'questions' | 'payments' | 'support';
export type ProcessKind = ServiceKind | 'bff';

const SERVICE_FOLDERS: Record<ProcessKind, string> = {
  identity: 'services/identity',
  questions: 'services/questions',
  payments: 'services/payments',
  support: 'services/support',
  bff: 'bff',
};

export interface TopologyOptions {
  /** Instances of each service to start with (default 1 each); they share a balancer. */
  instances?: Partial<Record<ServiceKind, number>>;
  /** LOG_LEVEL of every child (default CHAOS_LOG_LEVEL or info). */
  logLevel?: string;
  /** How long a process may take to answer /ready (default 45 s: the machine is shared). */
  readyTimeoutMs?: number;
  /** Restart a process that crashed, after a short backoff, as a supervisor would (default true). */
  restartCrashed?: boolean;
  /** Progress lines (default: none). */
  progress?: (message: string) => void;
  /** Variables added to every service's environment (the bench: `READ_CACHE=off` for a figure without the cache). */
  serviceEnv?: Record<string, string>;
}

interface Instance {
  kind: ProcessKind;
  port: number;
  process: ManagedProcess;
}

/**
 * The distributed topology as plain processes (infra/README.md): a fresh Postgres database, a private NATS JetStream
 * server on a free port, and identity, questions, payments, support and the BFF each as its own `node dist/main.js`
 * with its environment. Processes can be killed, stopped and restarted; every exit nobody asked for is recorded in
 * `crashes` (and, by default, the process is restarted, as a supervisor would).
 */
export class Topology {
  readonly namespace = `chaos_${randomBytes(4).toString('hex')}`;
  readonly secrets = generateSecrets();
  readonly crashes: ExitRecord[] = [];
  readonly runDir: string;
  readonly logDir: string;
  readonly mailDir: string;
  database: ChaosDatabase | null = null;
  nats!: ManagedProcess;
  natsPort = 0;
  bffPort = 0;
  private readonly instances = new Map<string, Instance>();
  /** Every service sits behind a balancer, so any of them can run as several instances. */
  private readonly balancers: Record<ServiceKind, TcpBalancer> = {
    identity: new TcpBalancer('identity'),
    questions: new TcpBalancer('questions'),
    payments: new TcpBalancer('payments'),
    support: new TcpBalancer('support'),
  };
  private readonly restarting = new Map<string, Promise<void>>();
  private readonly consecutiveCrashes = new Map<string, number>();
  private readonly root = repoRoot();
  private stopped = false;
  private stopping: Promise<string[]> | null = null;
  private readonly killAllNow = () => {
    for (const instance of this.instances.values()) instance.process.killNow();
    this.nats?.killNow();
  };

  private constructor(private readonly opts: TopologyOptions) {
    this.runDir = mkdtempSync(join(runDirParent(), `ques-chaos-${process.pid}-`));
    this.logDir = join(this.runDir, 'logs');
    this.mailDir = join(this.runDir, 'mail');
    mkdirSync(this.logDir);
    mkdirSync(this.mailDir);
  }

  /** Starts everything and waits until the BFF is ready; on failure cleans up what it started and rethrows. */
  static async start(opts: TopologyOptions = {}): Promise<Topology> {
    const topology = new Topology(opts);
    process.once('exit', topology.killAllNow);
    try {
      await topology.boot();
      return topology;
    } catch (err) {
      await topology.stop({ keepRunDir: true });
      throw new Error(`${(err as Error).message}\n(logs kept in ${topology.logDir})`, { cause: err });
    }
  }

  get natsUrl(): string {
    return `nats://127.0.0.1:${this.natsPort}`;
  }

  get bffUrl(): string {
    return `http://127.0.0.1:${this.bffPort}`;
  }

  private get readyTimeoutMs(): number {
    return this.opts.readyTimeoutMs ?? 45_000;
  }

  private progress(message: string): void {
    this.opts.progress?.(message);
  }

  private async boot(): Promise<void> {
    const server = postgresServerUrl();
    const abandoned = await dropAbandonedDatabases(server).catch(() => []);
    if (abandoned.length) this.progress(`dropped ${abandoned.length} database(s) left by killed chaos runs`);
    this.database = await createDatabase(server);
    this.progress(`database ${this.database.name}`);

    await this.startNatsServer();
    this.progress(`private NATS JetStream at ${this.natsUrl} (store ${join(this.runDir, 'nats')})`);

    this.bffPort = await freePort();
    for (const balancer of Object.values(this.balancers)) await balancer.listen(0);

    const starting: Promise<unknown>[] = [];
    for (const kind of ['identity', 'questions', 'payments', 'support'] as const) {
      for (let i = 0; i < (this.opts.instances?.[kind] ?? 1); i++) starting.push(this.launch(kind));
    }
    await Promise.all(starting);
    await this.launch('bff');
    this.progress(`BFF ready at ${this.bffUrl}; logs in ${this.logDir}`);
  }

  private async startNatsServer(): Promise<void> {
    const binary = natsServerBinary();
    if (!existsSync(binary)) throw new Error(`nats-server not found at ${binary} (set NATS_SERVER_BIN)`);
    this.natsPort = await freePort();
    const monitorPort = await freePort();
    const storeDir = join(this.runDir, 'nats');
    this.nats = new ManagedProcess({
      name: 'nats',
      command: binary,
      args: [
        '-js',
        '-a',
        '127.0.0.1',
        '-p',
        String(this.natsPort),
        '-m',
        String(monitorPort),
        '-sd',
        storeDir,
        '-n',
        `ques-${this.namespace}`,
      ],
      env: childBaseEnv(),
      logFile: join(this.logDir, 'nats.log'),
      readyUrl: `http://127.0.0.1:${monitorPort}/healthz?js-enabled-only=true`,
      onCrash: (record) => this.onCrash(this.nats, record),
    });
    this.nats.start();
    await this.nats.waitReady(this.readyTimeoutMs);
  }

  /** The environment of one process: what its `src/config.ts` reads (the table in infra/README.md). */
  env(kind: ProcessKind, port: number): Record<string, string> {
    if (!this.database) throw new Error('no database yet');
    const s = this.secrets;
    const common = {
      ...childBaseEnv(),
      NODE_ENV: 'production',
      LOG_LEVEL: this.opts.logLevel ?? childLogLevel(),
      HOST: '127.0.0.1',
      PORT: String(port),
      JWT_PUBLIC_KEY: s.jwtPublicKey,
      PUBLIC_ORIGIN: this.bffUrl,
    };
    const service = {
      ...common,
      DATABASE_URL: this.database.url,
      NATS_URL: this.natsUrl,
      BUS_NAMESPACE: this.namespace,
      ...this.opts.serviceEnv,
    };
    switch (kind) {
      case 'identity':
        // Its data export and set-up checklist read questions and payments over /internal/* (token required, ADR 0060).
        return { ...service, JWT_PRIVATE_KEY: s.jwtPrivateKey, MAIL_DIR: this.mailDir, INTERNAL_API_TOKEN: s.internalApiToken,
          QUESTIONS_URL: this.balancers.questions.url, PAYMENTS_URL: this.balancers.payments.url };
      case 'questions':
        // Mail goes to DATA_DIR/mail: the run folder's mail/ like the others.
        return { ...service, DATA_DIR: this.runDir, INTERNAL_API_TOKEN: s.internalApiToken };
      case 'payments':
        return {
          ...service,
          QUESTIONS_URL: this.balancers.questions.url,
          INTERNAL_API_TOKEN: s.internalApiToken,
          PAYMENTS_TEST_MODE: 'true',
          TEST_MODE_WEBHOOK_SECRET: s.testModeWebhookSecret,
        };
      case 'support':
        return { ...service, CAPTCHA_HMAC_KEY: s.captchaHmacKey, MAIL_DIR: this.mailDir, TRUST_PROXY: 'all' };
      case 'bff':
        return {
          ...common,
          IDENTITY_URL: this.balancers.identity.url,
          QUESTIONS_URL: this.balancers.questions.url,
          PAYMENTS_URL: this.balancers.payments.url,
          SUPPORT_URL: this.balancers.support.url,
          // Every chaos client shares one address; the per-client limits would throttle the load itself.
          AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
        };
      default: {
        const unknown: never = kind;
        throw new Error(`unknown process kind ${String(unknown)}`);
      }
    }
  }

  /** Faults and restarts after `stop()` would bring processes back to life: refuse them. */
  private assertRunning(): void {
    if (this.stopped) throw new Error('the topology has been stopped');
  }

  /** Starts one more instance of `kind` and waits until it is ready. */
  private async launch(kind: ProcessKind): Promise<Instance> {
    this.assertRunning();
    const port = kind === 'bff' ? this.bffPort : await freePort();
    let n = 1;
    while (this.instances.has(`${kind}#${n}`)) n++;
    const name = `${kind}#${n}`;
    const script = join(this.root, SERVICE_FOLDERS[kind], 'dist', 'main.js');
    if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first`);
    const child: ManagedProcess = new ManagedProcess({
      name,
      command: process.execPath,
      args: [script],
      env: this.env(kind, port),
      logFile: join(this.logDir, `${name.replace('#', '-')}.log`),
      readyUrl: `http://127.0.0.1:${port}/ready`,
      onCrash: (record) => this.onCrash(child, record),
    });
    const instance = { kind, port, process: child };
    this.instances.set(name, instance);
    child.start();
    await child.waitReady(this.readyTimeoutMs);
    if (kind !== 'bff') this.balancers[kind].add(port);
    return instance;
  }

  private onCrash(child: ManagedProcess, record: ExitRecord): void {
    if (this.stopped) return;
    this.crashes.push(record);
    this.progress(
      `CRASH ${record.process}: exit code ${record.code}, signal ${record.signal ?? 'none'} — ${crashSummary(record).reason}`,
    );
    if (this.opts.restartCrashed === false) return;
    const crashes = (this.consecutiveCrashes.get(child.name) ?? 0) + 1;
    this.consecutiveCrashes.set(child.name, crashes);
    const delay = Math.min(250 * 2 ** (crashes - 1), 5_000);
    const restart = (async () => {
      await sleep(delay);
      if (this.stopped || child.running) return;
      child.start();
      try {
        await child.waitReady(this.readyTimeoutMs);
        this.consecutiveCrashes.set(child.name, 0);
      } catch (err) {
        this.progress(
          `restart of ${child.name} after its crash failed: ${(err as Error).message.split('\n')[0]}`,
        );
      }
    })();
    this.restarting.set(child.name, restart);
    void restart.finally(() => {
      if (this.restarting.get(child.name) === restart) this.restarting.delete(child.name);
    });
  }

  /** Names of the running service and BFF processes (`questions#1`, …), optionally of one kind. */
  names(kind?: ProcessKind): string[] {
    return [...this.instances.entries()].filter(([, i]) => !kind || i.kind === kind).map(([name]) => name);
  }

  get(name: string): ManagedProcess {
    if (name === 'nats') return this.nats;
    const instance = this.instances.get(name);
    if (!instance) throw new Error(`no process ${name} (have: ${[...this.instances.keys()].join(', ')})`);
    return instance.process;
  }

  /** kill -9 or SIGTERM, and wait for the exit. */
  async signal(name: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<ExitRecord | null> {
    this.assertRunning();
    await this.restarting.get(name);
    return this.get(name).stop(signal);
  }

  /** Starts a stopped process again (same port, same environment) and waits until it is ready. */
  async restart(name: string): Promise<void> {
    await this.restarting.get(name);
    this.assertRunning();
    const child = this.get(name);
    if (!child.running) child.start();
    await child.waitReady(this.readyTimeoutMs);
  }

  /** One more instance of a service, behind the same balancer. Returns its name. */
  async addInstance(kind: ServiceKind): Promise<string> {
    return (await this.launch(kind)).process.name;
  }

  /** Takes an instance out of the balancer, stops it with SIGTERM and forgets it. */
  async removeInstance(name: string): Promise<ExitRecord | null> {
    const instance = this.instances.get(name);
    if (!instance) throw new Error(`no process ${name}`);
    if (instance.kind !== 'bff') this.balancers[instance.kind].remove(instance.port);
    await this.restarting.get(name);
    const exit = await instance.process.stop('SIGTERM');
    this.instances.delete(name);
    return exit;
  }

  /** Waits until every process is running and ready (after crashes and restarts). */
  async allReady(): Promise<void> {
    await Promise.all([...this.restarting.values()]);
    this.assertRunning();
    await this.nats.waitReady(this.readyTimeoutMs);
    await Promise.all([...this.instances.values()].map((i) => i.process.waitReady(this.readyTimeoutMs)));
  }

  terminateBackends(): Promise<number> {
    this.assertRunning();
    if (!this.database) throw new Error('no database');
    return terminateBackends(this.database);
  }

  backlog(): Promise<ConsumerBacklog> {
    return consumerBacklog(this.natsUrl, this.namespace);
  }

  /**
   * Stops everything: services and BFF (SIGTERM, SIGKILL after 10 s), the balancers, the private NATS; drops the
   * database unless `keepDatabase` and removes the run folder unless `keepRunDir`. Never throws: problems are returned.
   */
  stop(opts: { keepRunDir?: boolean; keepDatabase?: boolean } = {}): Promise<string[]> {
    // A second call (Ctrl-C during the run, then the run's own cleanup) waits for the first one to finish.
    this.stopping ??= this.stopOnce(opts);
    return this.stopping;
  }

  private async stopOnce(opts: { keepRunDir?: boolean; keepDatabase?: boolean }): Promise<string[]> {
    this.stopped = true;
    const problems: string[] = [];
    const attempt = async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (err) {
        problems.push(`${what}: ${(err as Error).message}`);
      }
    };
    await attempt('stopping processes', () =>
      Promise.all([...this.instances.values()].map((i) => i.process.stop('SIGTERM', 10_000))),
    );
    await attempt('closing balancers', () =>
      Promise.all(Object.values(this.balancers).map((b) => b.close())),
    );
    if (this.nats) await attempt('stopping NATS', () => this.nats.stop('SIGTERM', 5_000));
    const database = this.database;
    if (database && !opts.keepDatabase)
      await attempt(`dropping database ${database.name}`, () => dropDatabase(database));
    process.off('exit', this.killAllNow);
    if (!opts.keepRunDir) rmSync(this.runDir, { recursive: true, force: true });
    return problems;
  }
}
