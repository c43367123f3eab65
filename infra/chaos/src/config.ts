import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The only reader of process.env in the chaos workspace. Children never inherit the harness's environment wholesale:
 * they get `childBaseEnv()` (what node itself needs) plus the variables the topology sets for them, so a stray
 * DATABASE_URL in the caller's shell cannot point a chaos run at someone else's data.
 */
const env = process.env;

/** The Postgres server (maintenance database) the topology creates its database on. */
export const postgresServerUrl = (): string =>
  env.CHAOS_DATABASE_URL ?? env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The nats-server binary the topology starts its private server from. */
export const natsServerBinary = (): string => env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

/** Services' log level in their log files (`info` keeps one line per request, useful when a check fails). */
export const childLogLevel = (): string => env.CHAOS_LOG_LEVEL ?? 'info';

/** Keep the run folder (logs, mail, NATS store) after a run that passed, and the database; a failed run keeps its logs anyway. */
export const keepRunDir = (): boolean => env.CHAOS_KEEP === '1';

/** Where run folders go (logs, mail, NATS store, report.json). */
export const runDirParent = (): string => env.CHAOS_DIR ?? tmpdir();

/** Whether the workspace's vitest run includes the chaos short run (on unless CHAOS_IN_TEST=0). */
export const chaosInTest = (): boolean => env.CHAOS_IN_TEST !== '0';

/** What a node child needs from the parent environment, and nothing else. */
export function childBaseEnv(): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const value = env[name];
    if (value !== undefined) base[name] = value;
  }
  return base;
}

/** The monorepo root: the nearest folder above this module whose package.json declares workspaces. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && existsSync(join(dir, 'services')) && existsSync(join(dir, 'bff')))
      return dir;
    const parent = resolve(dir, '..');
    if (parent === dir)
      throw new Error(
        'chaos: cannot find the monorepo root (a folder with package.json, services/ and bff/)',
      );
    dir = parent;
  }
}

/**
 * The operator commands' target (`backup`, `restore`, `republish`): the deployment's own variables, as its services
 * read them (infra/README.md). Unlike the topology's children, these commands act on a real deployment.
 */
export function deploymentEnv(): {
  databaseUrl: string | undefined;
  natsUrl: string | undefined;
  namespace: string;
  /** Where relative paths are taken from: npm's INIT_CWD (`npm run … -w` runs in the workspace folder). */
  cwd: string;
} {
  return {
    databaseUrl: env.DATABASE_URL,
    natsUrl: env.NATS_URL,
    namespace: env.BUS_NAMESPACE ?? '',
    cwd: env.INIT_CWD ?? process.cwd(),
  };
}
