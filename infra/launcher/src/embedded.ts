import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildBff } from '@ques/bff';
import { startIdentityService } from '@ques/identity';
import {
  connectEmbedded,
  createLogger,
  InProcessEventBus,
  loadOrCreateJwtKeys,
  openEmbeddedPostgres,
  type Clock,
  type Logger,
  type ServiceRuntime,
} from '@ques/kit';

export interface EmbeddedOptions {
  port?: number;
  host?: string;
  /** Where the database, keys and mail live. In memory (and throwaway keys) when null. */
  dataDir?: string | null;
  log?: Logger;
  logLevel?: string;
  publicOrigin?: string;
  webDist?: string;
  clock?: Clock;
  authRateLimitPerMinute?: number;
}

export interface EmbeddedProduct {
  url: string;
  bff: FastifyInstance;
  services: Record<string, ServiceRuntime<any>>;
  bus: InProcessEventBus;
  stop(): Promise<void>;
}

const JWT = { issuer: 'ques-identity', audience: 'ques' };

/**
 * The whole product in one process: one embedded PGlite (a schema per service), the in-process bus, every service on
 * a loopback port, and the BFF on `port`. Same service code as the distributed topology.
 */
export async function startEmbedded(opts: EmbeddedOptions = {}): Promise<EmbeddedProduct> {
  const log = opts.log ?? createLogger('ques', opts.logLevel ?? 'info');
  const dataDir = opts.dataDir === undefined ? resolve('.data') : opts.dataDir;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const keys = loadOrCreateJwtKeys(dataDir ? join(dataDir, 'keys') : join(process.env.TMPDIR ?? '/tmp', `ques-keys-${process.pid}-${Date.now()}`));
  const pg = await openEmbeddedPostgres(dataDir ? join(dataDir, 'pg') : undefined);
  const bus = new InProcessEventBus({ log });
  const jwt = { publicKey: keys.publicKey, ...JWT };

  const identity = await startIdentityService({
    database: connectEmbedded(pg, 'identity'),
    bus,
    log,
    clock: opts.clock,
    jwt: { ...jwt, privateKey: keys.privateKey },
  });
  const identityUrl = await identity.listen(0);

  const port = opts.port ?? 3000;
  const publicOrigin = opts.publicOrigin ?? `http://localhost:${port}`;
  const bff = await buildBff({
    log,
    upstreams: { identity: identityUrl },
    jwt,
    publicOrigin,
    webDist: opts.webDist ?? fileURLToPath(new URL('../../../web/dist', import.meta.url)),
    authRateLimitPerMinute: opts.authRateLimitPerMinute,
  });
  const address = await bff.listen({ port, host: opts.host ?? '127.0.0.1' });
  const url = port === 0 ? address : publicOrigin;

  return {
    url,
    bff,
    services: { identity },
    bus,
    async stop() {
      await bff.close();
      await identity.stop();
      await bus.close();
      await pg.pglite.close();
    },
  };
}
