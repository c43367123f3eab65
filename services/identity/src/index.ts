export { identityService, startIdentityService, type IdentityDeps, type IdentityExtra } from './service.js';
export { userDecider } from './users/domain/decide.js';
