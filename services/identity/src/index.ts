export { identityService, identityVault, type IdentityParts } from './service.js';
export { loadIdentityConfig, ZIdentityEnv, type IdentityConfig } from './config.js';
export type { IdentityDB } from './db/schema.js';
export { adminParts, EMBEDDED_PID_FILE, openIdentityDatabase, runIdentityCli, runningEmbedded } from './admin.js';
export { CONFIG_GRANTER, cliGranter, Operators, parseOperatorEmails, type Granter } from './operators/operators.js';
export { userDecider } from './users/domain/decide.js';
export { createArchiveProfile, markArchiveProfile } from './users/archive.js';
