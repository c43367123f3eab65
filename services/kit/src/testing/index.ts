export * from './infra.js';
export * from './nats.js';
export * from './identities.js';
export * from './faults.js';
