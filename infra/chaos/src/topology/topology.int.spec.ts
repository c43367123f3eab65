import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infraGate, postgresServerUrl } from '@ques/kit/testing';
import { natsServerBinary } from '../config.js';
import { pollUntil } from '../util.js';
import { isAlive, withClient } from './postgres.js';
import { Topology } from './topology.js';

const run = infraGate(
  !!(await postgresServerUrl()) && existsSync(natsServerBinary()),
  'Postgres and the nats-server binary',
);

/** The plain-process runner itself: what the chaos suite relies on to start, hurt and clean up the topology. */
describe.runIf(run)('plain-process topology', () => {
  let topology: Topology;
  beforeAll(async () => {
    topology = await Topology.start({ logLevel: 'warn' });
  }, 120_000);
  afterAll(async () => {
    await topology?.stop();
  });

  it('runs every service and the BFF as its own node process on a private NATS and a fresh database', async () => {
    expect(topology.names().sort()).toEqual([
      'bff#1',
      'identity#1',
      'payments#1',
      'questions#1',
      'support#1',
    ]);
    const pids = new Set(topology.names().map((n) => topology.get(n).pid));
    expect(pids.size).toBe(5);
    expect(pids.has(process.pid)).toBe(false);
    expect(topology.natsUrl).not.toContain(':4222');
    expect((await fetch(`${topology.bffUrl}/ready`)).status).toBe(200);
    // The BFF's /api reaches identity: the topology is wired, not merely alive.
    const signup = await fetch(`${topology.bffUrl}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Tess Topology',
        email: 'tess@chaos.example',
        password: 'a long enough password',
      }),
    });
    expect(signup.status).toBe(201);
  });

  it('tells a requested kill -9 and a clean SIGTERM from a crash, and restarts a crashed process', async () => {
    const killed = await topology.signal('support#1', 'SIGKILL');
    expect(killed).toMatchObject({ signal: 'SIGKILL', clean: true });
    await topology.restart('support#1');
    const stopped = await topology.signal('support#1', 'SIGTERM');
    expect(stopped).toMatchObject({ code: 0, clean: true });
    await topology.restart('support#1');
    expect(topology.crashes).toEqual([]);

    // Killed from outside, as the OOM killer or a bug would: a crash, and the supervisor brings it back.
    const pid = topology.get('support#1').pid!;
    process.kill(pid, 'SIGKILL');
    await pollUntil(async () => topology.crashes.length === 1, {
      timeoutMs: 5_000,
      message: () => 'crash not recorded',
    });
    expect(topology.crashes[0]).toMatchObject({
      process: 'support#1',
      signal: 'SIGKILL',
      requested: null,
      clean: false,
    });
    await topology.allReady();
    expect(topology.get('support#1').pid).not.toBe(pid);
  }, 120_000);

  it('adds a second questions instance behind the balancer and retires it with SIGTERM', async () => {
    const name = await topology.addInstance('questions');
    expect(name).toBe('questions#2');
    await topology.signal('questions#1', 'SIGKILL');
    // With #1 down, the BFF still reaches questions: the balancer skips the instance that refuses.
    const res = await fetch(`${topology.bffUrl}/api/questions?username=nobody&role=receiver`);
    expect(res.status).toBe(200);
    await topology.restart('questions#1');
    expect(await topology.removeInstance(name)).toMatchObject({ code: 0, clean: true });
    expect(topology.names('questions')).toEqual(['questions#1']);
  }, 120_000);

  it('stops everything and leaves nothing behind', async () => {
    const pids = [...topology.names().map((n) => topology.get(n).pid!), topology.nats.pid!];
    const database = topology.database!;
    expect(await topology.stop()).toEqual([]);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(topology.runDir)).toBe(false);
    const left = await withClient(database.serverUrl, (c) =>
      c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database.name]),
    );
    expect(left.rowCount).toBe(0);
  }, 60_000);
});
