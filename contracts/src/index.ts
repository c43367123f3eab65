export * from './envelope.js';
export * from './errors.js';
export * from './identity.js';
export * from './support.js';
export * from './ops.js';
export * from './questions.js';
export * from './payments.js';
// The rest of the zod-free entry `@ques/contracts/core` (identity, questions, payments and support re-export theirs).
export * from './core/money.js';
export * from './core/page-meta.js';
export * from './core/profile-meta.js';
export * from './core/question-meta.js';
export * from './api/index.js';
export * from './asking.js';
export * from './question-status.js';
export * from './core/reports.js';
