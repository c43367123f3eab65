import assert from 'node:assert/strict';
import type { Decider, DomainEvent } from '../events/types.js';

/** What a rejected command must look like: the error class, its fields (e.g. `{ status: 409, message }`), or a check. */
export type ExpectedError =
  (new (...args: never[]) => Error) | Record<string, unknown> | ((error: Error) => boolean | void);

export interface DeciderThen<E extends DomainEvent, S> {
  /** The command decides exactly these events (deep equality); returns them to build later `given`s from. */
  then(expected: E[]): E[];
  /** Or any assertions of your own on the events and the state after them; returns the events. */
  then(check: (events: E[], state: S) => void): E[];
  /** The command is accepted and changes nothing (a repeat, say). */
  thenNothingHappened(): void;
  /** The command is rejected; returns the error for further checks. */
  thenThrows(expected?: ExpectedError): Error;
}

export interface DeciderGiven<C, E extends DomainEvent, S> {
  when(command: C): DeciderThen<E, S>;
  /** The state those events fold into. */
  state(): S;
}

export interface DeciderSpecification<C, E extends DomainEvent, S> {
  given(events?: E[]): DeciderGiven<C, E, S>;
}

/**
 * Given/when/then for a pure decider (emmett's DeciderSpecification):
 *
 *     const spec = deciderSpec(userDecider);
 *     spec.given([registered]).when(changePassword).then([passwordChanged]);
 *     spec.given([]).when(changePassword).thenThrows({ status: 404 });
 */
export function deciderSpec<C, E extends DomainEvent, S>(
  decider: Decider<C, E, S>,
): DeciderSpecification<C, E, S> {
  const fold = (events: E[]) => events.reduce(decider.evolve, decider.initialState());
  return {
    given(events = []) {
      return {
        state: () => fold(events),
        when(command) {
          const state = fold(events);
          const run = () => decider.decide(command, state);
          return {
            then(expected: E[] | ((events: E[], state: S) => void)) {
              const decided = run();
              if (typeof expected === 'function') expected(decided, decided.reduce(decider.evolve, state));
              else assert.deepStrictEqual(decided, expected);
              return decided;
            },
            thenNothingHappened() {
              assert.deepStrictEqual(run(), []);
            },
            thenThrows(expected) {
              let decided: E[];
              try {
                decided = run();
              } catch (error) {
                assert.ok(error instanceof Error, `expected an Error, got ${String(error)}`);
                checkError(error, expected);
                return error;
              }
              assert.fail(
                `expected the command to be rejected, but it decided ${JSON.stringify(decided.map((e) => e.type))}`,
              );
            },
          };
        },
      };
    },
  };
}

function checkError(error: Error, expected: ExpectedError | undefined): void {
  if (expected === undefined) return;
  if (typeof expected === 'function') {
    if (expected.prototype instanceof Error || expected === Error) {
      assert.ok(
        error instanceof (expected as new () => Error),
        `expected ${(expected as { name: string }).name}, got ${error.name}: ${error.message}`,
      );
      return;
    }
    const verdict = (expected as (error: Error) => boolean | void)(error);
    assert.notStrictEqual(
      verdict,
      false,
      `the error did not pass the check: ${error.name}: ${error.message}`,
    );
    return;
  }
  const actual = Object.fromEntries(
    Object.keys(expected).map((key) => [key, (error as unknown as Record<string, unknown>)[key]]),
  );
  assert.deepStrictEqual(actual, expected);
}
