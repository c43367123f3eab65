export * from './infra.js';
export * from './nats.js';
