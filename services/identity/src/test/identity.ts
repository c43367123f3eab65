import {
  generateJwtKeys,
  runService,
  type Database,
  type EventBus,
  type Logger,
  type RunOptions,
} from '@ques/kit';
import { loadIdentityConfig, type IdentityConfig } from '../config.js';
import type { IdentityDB } from '../db/schema.js';
import { identityService, type IdentityParts } from '../service.js';

/** Identity on a suite's database and bus, with a fresh key pair and no mail (what its integration suites run). */
export function runTestIdentity(
  database: Database<IdentityDB>,
  bus: EventBus,
  log: Logger,
  options: Omit<RunOptions<IdentityDB, IdentityConfig, object>, 'config' | 'database' | 'bus' | 'log'> = {},
  /** More settings (e.g. `OPERATOR_EMAILS`). */
  env: Record<string, string> = {},
) {
  const keys = generateJwtKeys();
  return runService<IdentityDB, IdentityConfig, IdentityParts, object>(identityService, {
    config: loadIdentityConfig({ INTERNAL_API_TOKEN: 'test-internal-token-0123456789', ...env, JWT_PUBLIC_KEY: keys.publicKey, JWT_PRIVATE_KEY: keys.privateKey }),
    database,
    bus,
    log,
    mailer: null,
    port: 0,
    pollIntervalMs: 100,
    ...options,
  });
}
