import type { Topology } from './topology/topology.js';
import { sleep } from './util.js';

export type Mode = 'short' | 'long';

export interface FaultContext {
  topology: Topology;
  mode: Mode;
  /** 1-based; the long mode runs every fault several times and varies its target per round. */
  round: number;
  progress: (message: string) => void;
  signal?: AbortSignal;
}

/**
 * One kind of fault, injected while the load runs. `inject` returns when the fault is over and the topology has
 * been given back (restarted, reconnected); the load keeps going a little longer so recovery happens under load.
 */
export interface Fault {
  name: string;
  /** Column heading in the report. */
  title: string;
  /** Multiplies the mode's ask rate during this phase (a fault that only bites mid-transaction needs more traffic). */
  loadFactor?: number;
  before?(ctx: FaultContext): Promise<void>;
  inject(ctx: FaultContext): Promise<void>;
  /** After the phase's checks (e.g. retire the extra instances). */
  after?(ctx: FaultContext): Promise<void>;
}

/** Keeps the load running for `ms` (pacing the fault, not waiting for a condition). */
const underLoad = (ctx: FaultContext, ms: number) => sleep(ms, ctx.signal);

const pick = <T>(ctx: FaultContext, short: T, long: T): T => (ctx.mode === 'short' ? short : long);

/** The processes a kill hits, per round: the two that hold the money first, then the others. */
function killTargets(ctx: FaultContext): string[] {
  if (ctx.mode === 'short') return ['questions#1', 'payments#1'];
  const rounds = [
    ['questions#1', 'payments#1'],
    ['identity#1', 'support#1', 'payments#1'],
    ['questions#1', 'payments#1', 'bff#1'],
  ];
  return rounds[(ctx.round - 1) % rounds.length]!;
}

export const FAULTS: Fault[] = [
  {
    name: 'baseline',
    title: 'no fault',
    async inject(ctx) {
      await underLoad(ctx, pick(ctx, 5_000, 20_000));
    },
  },
  {
    name: 'nats',
    title: 'NATS kill -9',
    async inject(ctx) {
      const outage = pick(ctx, 5_000, 20_000);
      ctx.progress(`kill -9 nats-server; back in ${outage / 1000} s`);
      await ctx.topology.signal('nats', 'SIGKILL');
      await underLoad(ctx, outage);
      await ctx.topology.restart('nats');
      ctx.progress('nats-server restarted');
      await underLoad(ctx, 2_000);
    },
  },
  {
    name: 'pg-terminate',
    title: 'PG terminate',
    // A connection only hurts when it is terminated while checked out (mid-transaction): that takes traffic.
    loadFactor: 4,
    async inject(ctx) {
      const times = pick(ctx, 5, 10);
      for (let i = 1; i <= times; i++) {
        const n = await ctx.topology.terminateBackends();
        ctx.progress(`pg_terminate_backend ${i}/${times}: ${n} backends`);
        await underLoad(ctx, 1_000);
      }
    },
  },
  {
    name: 'kill-9',
    title: 'service kill -9',
    async inject(ctx) {
      for (const name of killTargets(ctx)) {
        ctx.progress(`kill -9 ${name}`);
        await ctx.topology.signal(name, 'SIGKILL');
        await ctx.topology.restart(name);
        ctx.progress(`${name} restarted`);
        await underLoad(ctx, 1_500);
      }
    },
  },
  {
    name: 'sigterm',
    title: 'SIGTERM',
    async inject(ctx) {
      for (const name of ['questions#1', 'payments#1']) {
        ctx.progress(`SIGTERM ${name}`);
        const exit = await ctx.topology.signal(name, 'SIGTERM');
        ctx.progress(
          `${name} exited (code ${exit?.code ?? '?'}${exit && !exit.clean ? ', NOT clean' : ''}); restarting`,
        );
        await ctx.topology.restart(name);
        await underLoad(ctx, 1_500);
      }
    },
  },
  {
    name: 'replicas',
    title: '2 instances',
    async before(ctx) {
      const added = await Promise.all([
        ctx.topology.addInstance('questions'),
        ctx.topology.addInstance('payments'),
      ]);
      ctx.progress(`started ${added.join(', ')} behind the balancers`);
    },
    async inject(ctx) {
      await underLoad(ctx, pick(ctx, 8_000, 30_000));
    },
    async after(ctx) {
      for (const kind of ['questions', 'payments'] as const) {
        for (const name of ctx.topology.names(kind).filter((n) => n !== `${kind}#1`))
          await ctx.topology.removeInstance(name);
      }
    },
  },
];
