export * from './envelope.js';
export * from './errors.js';
export * from './identity.js';
export * from './support.js';
export * from './questions.js';
export * from './payments.js';
