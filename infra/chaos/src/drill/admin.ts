import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { childBaseEnv, repoRoot } from '../config.js';
import { SERVICE_SCHEMAS, type ServiceSchema } from './figures.js';

const run = promisify(execFile);

export interface AdminTarget {
  databaseUrl: string;
  natsUrl?: string;
  namespace?: string;
  /** Recorded in each service's operator_log. */
  operator?: string;
}

/**
 * Runs one service's admin CLI (`npm run admin -w @ques/<service> -- …`, i.e. `node services/<service>/dist/cli.js`):
 * the drills recover with exactly the commands infra/README.md gives operators, not with a harness-only path.
 */
export async function runAdmin(service: ServiceSchema, args: string[], target: AdminTarget): Promise<string> {
  const script = join(repoRoot(), 'services', service, 'dist', 'cli.js');
  const env: Record<string, string> = {
    ...childBaseEnv(),
    DATABASE_URL: target.databaseUrl,
    LOG_LEVEL: 'warn',
    ...(target.natsUrl ? { NATS_URL: target.natsUrl } : {}),
    ...(target.namespace ? { BUS_NAMESPACE: target.namespace } : {}),
  };
  try {
    const { stdout } = await run(
      process.execPath,
      [script, ...args, '--operator', target.operator ?? 'ques-drill'],
      { env, timeout: 10 * 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } catch (err) {
    const e = err as Error & { stderr?: string };
    throw new Error(`${service} admin ${args.join(' ')} failed: ${e.message}\n${e.stderr ?? ''}`, {
      cause: err,
    });
  }
}

/** `rebuild-projections` of every service, one after the other (each rebuild already uses several connections). */
export async function rebuildAll(target: AdminTarget): Promise<void> {
  for (const service of SERVICE_SCHEMAS) await runAdmin(service, ['rebuild-projections'], target);
}

/**
 * `republish --from 0` of every service: each recreates its stream if it is missing and sends its whole event store
 * again. The envelopes keep their event ids, so consumers skip what they have applied (processed_events); the transport
 * msgID carries a run suffix so JetStream's duplicate window does not swallow the deliberate re-send.
 */
export async function republishAll(target: AdminTarget): Promise<void> {
  if (!target.natsUrl) throw new Error('republish needs NATS_URL');
  await Promise.all(
    SERVICE_SCHEMAS.map((service) => runAdmin(service, ['republish', '--from', '0'], target)),
  );
}
