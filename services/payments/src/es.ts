import type { Kysely } from 'kysely';
import {
  ConcurrencyError,
  type Decider,
  type DomainEvent,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
} from '@ques/kit';

/** Load → decide → append inside the caller's transaction. */
export async function decideWithin<C, E extends DomainEvent, S>(
  store: EventStore,
  trx: Kysely<any>,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C,
  metadata: EventMetadata,
): Promise<{ state: S; events: RecordedEvent[] }> {
  const { state, version } = await store.load(streamId, decider, trx);
  const events = decider.decide(command, state);
  const next = events.reduce(decider.evolve, state);
  const recorded = await store.appendWithin(trx, { streamId, expectedVersion: version, events, metadata });
  return { state: next, events: recorded };
}

/**
 * `store.handle`, retried when another writer got there first: the command is decided again on the fresh state
 * (repeats are no-ops in these deciders, so a lost race ends as "already done", not as an error).
 */
export async function handleWithRetry<C, E extends DomainEvent, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  command: C,
  metadata: EventMetadata,
  attempts = 5,
): Promise<{ state: S; events: RecordedEvent[] }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { state, events } = await store.handle(streamId, decider, command, metadata);
      return { state, events };
    } catch (err) {
      if (!(err instanceof ConcurrencyError) || attempt >= attempts) throw err;
    }
  }
}
