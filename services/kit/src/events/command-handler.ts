import type { Kysely } from 'kysely';
import type { KitTables } from '../db/schema.js';
import { ConcurrencyError } from '../errors.js';
import type { EventStore } from './event-store.js';
import type { Decider, DomainEvent, EventMetadata, RecordedEvent } from './types.js';

/** The command handler of a decider over a service's tables: `CommandsOf<typeof tipDecider, PaymentsDB>`. */
export type CommandsOf<D, DB extends KitTables> =
  D extends Decider<infer C, infer E extends DomainEvent, infer S> ? CommandHandler<C, E, S, DB> : never;

export interface CommandHandlerOptions<C, E extends DomainEvent, S, DB extends KitTables> {
  decider: Decider<C, E, S>;
  /** The stream of the aggregate with this id, e.g. `(id) => \`question-${id}\``. */
  streamId: (id: string) => string;
  /**
   * Runs first in the command's transaction, before the stream is read: lock the row that every writer of this
   * aggregate locks (a deadline, a read-model row), so commands, jobs and consumers on it run one after the other.
   */
  lock?: (trx: Kysely<DB>, id: string) => Promise<void>;
  /**
   * Writes that must commit with the events (schedule or cancel a job, queue a mail), given what was recorded and
   * the state after it. Runs after the append and its inline projections.
   */
  sideEffects?: (trx: Kysely<DB>, recorded: RecordedEvent<E>[], state: S) => Promise<void>;
  /**
   * When another writer appended first, decide again on the fresh state up to this many times (deciders whose
   * repeats are no-ops then end a lost race as "already done"). Default 0: the caller gets the 409. Never applies
   * inside a caller's transaction, which cannot be replayed from here.
   */
  retries?: number;
}

export interface HandleOptions<S, E extends DomainEvent, DB> {
  /** Run inside the caller's transaction (a scheduled job, a consumer's idempotency transaction) instead of a new one. */
  transaction?: Kysely<DB>;
  /** Writes of this one call that commit with the events (an avatar's bytes, a spent captcha). */
  alongside?: (trx: Kysely<DB>, result: CommandResult<S, E>) => Promise<void>;
  /**
   * The command creates its aggregate under an id just derived for it (an Idempotency-Key's id, a random one): decide
   * on the initial state at version 0 without the lock and the stream's load (two round trips, ADR 0049). If the
   * stream exists after all (a retry of a request that committed), the append at version 0 fails on the unique
   * (stream, version) index and the caller gets the same ConcurrencyError (409) as a lost race — or, with `retries`,
   * the command is decided again the ordinary way, on the loaded stream.
   */
  newStream?: boolean;
}

export interface CommandResult<S, E extends DomainEvent> {
  /** The state after the new events. */
  state: S;
  /** What was appended (empty when the command changed nothing). */
  events: RecordedEvent<E>[];
  /** The stream's version after the append. */
  version: number;
}

/**
 * The one way a service runs a command: in one transaction, (lock →) load the stream → pure `decide` → append at the
 * expected version with the inline projections and the outbox rows (→ side effects). A concurrent writer makes the
 * append fail with a ConcurrencyError (409) instead of deciding on stale state.
 */
export class CommandHandler<C, E extends DomainEvent, S, DB extends KitTables> {
  constructor(
    private readonly store: EventStore<DB>,
    private readonly options: CommandHandlerOptions<C, E, S, DB>,
  ) {}

  async handle(
    id: string,
    command: C,
    metadata: EventMetadata,
    options: HandleOptions<S, E, DB> = {},
  ): Promise<CommandResult<S, E>> {
    const run = (trx: Kysely<DB>, fresh: boolean) => this.decideAndAppend(trx, id, command, metadata, options, fresh);
    if (options.transaction) return run(options.transaction, false);
    for (let attempt = 0; ; attempt += 1) {
      try {
        // Only a first attempt may assume the stream is new: a retry follows a writer that appended first.
        const fresh = attempt === 0 && options.newStream === true;
        return await this.store.db.transaction().execute((trx) => run(trx, fresh));
      } catch (err) {
        if (!(err instanceof ConcurrencyError) || attempt >= (this.options.retries ?? 0)) throw err;
      }
    }
  }

  /** The aggregate's current state and version (read inside `executor`'s transaction when given). */
  async load(id: string, executor?: Kysely<DB>): Promise<{ state: S; version: number }> {
    return this.store.load(this.options.streamId(id), this.options.decider, executor);
  }

  private async decideAndAppend(
    trx: Kysely<DB>,
    id: string,
    command: C,
    metadata: EventMetadata,
    options: HandleOptions<S, E, DB>,
    fresh: boolean,
  ): Promise<CommandResult<S, E>> {
    const { decider } = this.options;
    const streamId = this.options.streamId(id);
    let state: S;
    let version: number;
    if (fresh) {
      // Nothing to lock or load for an aggregate that does not exist yet; the append at version 0 checks that.
      state = decider.initialState();
      version = 0;
    } else {
      await this.options.lock?.(trx, id);
      ({ state, version } = await this.store.load(streamId, decider, trx));
    }
    const decided = decider.decide(command, state);
    const next = decided.reduce(decider.evolve, state);
    const recorded = (await this.store.appendWithin(trx, {
      streamId,
      expectedVersion: version,
      events: decided,
      metadata,
      versionReadInTransaction: true,
    })) as RecordedEvent<E>[];
    const result: CommandResult<S, E> = { state: next, events: recorded, version: version + decided.length };
    if (recorded.length > 0) await this.options.sideEffects?.(trx, recorded, next);
    await options.alongside?.(trx, result);
    return result;
  }
}
