export { identityService, identityVault, type IdentityParts } from './service.js';
export { loadIdentityConfig, ZIdentityEnv, type IdentityConfig } from './config.js';
export type { IdentityDB } from './db/schema.js';
export { runIdentityCli } from './admin.js';
export { userDecider } from './users/domain/decide.js';
export { createArchiveProfile, markArchiveProfile } from './users/archive.js';
