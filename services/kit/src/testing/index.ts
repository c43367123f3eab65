export * from './infra.js';
export * from './nats.js';
export * from './identities.js';
export * from './faults.js';
export * from './migrations.js';
export * from './decider.js';
export * from './routes.js';
export * from './test-bed.js';
