/**
 * `@ques/kit/domain`: what pure domain code (a service's `domain/` folder) may use of the kit — the decider and event
 * types and the domain errors. No I/O here; the lint rule keeps domain files to this entry.
 */
export type { Clock, Decider, DomainEvent, EventMetadata, RecordedEvent } from './events/types.js';
export { decider, unreachable } from './events/types.js';
export * from './errors.js';
export * from './access.js';
export * from './mail/letter.js';
export * from './mail/address.js';
