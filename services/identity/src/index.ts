export { createIdentityService, identityService, startIdentityService, type IdentityDeps, type IdentityExtra, type IdentityOptions } from './service.js';
export { runIdentityCli } from './admin.js';
export { userDecider } from './users/domain/decide.js';
export { createArchiveProfile, markArchiveProfile } from './users/archive.js';
