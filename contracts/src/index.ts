export * from './envelope.js';
export * from './errors.js';
export * from './identity.js';
