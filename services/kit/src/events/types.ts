/** Who and what caused an event; travels from the BFF request through NATS into every downstream event. */
export interface EventMetadata {
  correlationId: string;
  causationId: string | null;
  /** User id of the person acting, or null for the system / a guest. */
  actor: string | null;
}

export interface DomainEvent<TType extends string = string, TData = unknown> {
  type: TType;
  data: TData;
}

export interface RecordedEvent<E extends DomainEvent = DomainEvent> {
  globalPosition: number;
  eventId: string;
  streamId: string;
  streamVersion: number;
  type: E['type'];
  data: E['data'];
  metadata: EventMetadata;
  recordedAt: Date;
}

/** Maps a stored event to its public integration event, or null when it stays private to the service. */
export type IntegrationMapper = (event: RecordedEvent) => { type: string; version: number; data: unknown } | null;

/**
 * A pure aggregate: decide turns a command into events given the current state; evolve folds an event into state.
 * Time, ids and lookups arrive inside the command.
 */
export interface Decider<Command, Event extends DomainEvent, State> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
}

/** A decider from its three functions, its types read from them: `decider(initialTipState, evolveTip, decideTip)`. */
export function decider<Command, Event extends DomainEvent, State>(
  initialState: () => State,
  evolve: (state: State, event: Event) => State,
  decide: (command: Command, state: State) => Event[],
): Decider<Command, Event, State> {
  return { initialState, evolve, decide };
}

/** The `default` of an exhaustive switch: TypeScript refuses it while a case is missing; at run time it says what came. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
