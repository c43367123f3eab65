import { describe, expect, it } from 'vitest';
import { conflict, type AppError } from '../errors.js';
import type { Decider } from '../events/types.js';
import { deciderSpec } from './decider.js';

type Opened = { type: 'Opened'; data: { id: string } };
type Closed = { type: 'Closed'; data: { id: string } };
type Command = { type: 'Open' | 'Close'; data: { id: string } };
type State = 'none' | 'open' | 'closed';

const door: Decider<Command, Opened | Closed, State> = {
  initialState: () => 'none',
  evolve: (_state, event) => (event.type === 'Opened' ? 'open' : 'closed'),
  decide: (command, state) => {
    if (command.type === 'Open') {
      if (state === 'open') return [];
      if (state === 'closed') throw conflict('A closed door stays closed.');
      return [{ type: 'Opened', data: command.data }];
    }
    if (state !== 'open') throw conflict('Only an open door closes.');
    return [{ type: 'Closed', data: command.data }];
  },
};

const spec = deciderSpec(door);
const opened: Opened = { type: 'Opened', data: { id: 'd1' } };

describe('deciderSpec: given / when / then for pure deciders', () => {
  it('passes when the command decides exactly the expected events, and returns them', () => {
    expect(
      spec
        .given()
        .when({ type: 'Open', data: { id: 'd1' } })
        .then([opened]),
    ).toEqual([opened]);
    spec
      .given([opened])
      .when({ type: 'Close', data: { id: 'd1' } })
      .then((events, state) => {
        expect(events.map((e) => e.type)).toEqual(['Closed']);
        expect(state).toBe('closed');
      });
    expect(spec.given([opened]).state()).toBe('open');
  });

  it('fails when the events differ', () => {
    expect(() =>
      spec
        .given()
        .when({ type: 'Open', data: { id: 'd1' } })
        .then([]),
    ).toThrow();
    expect(() =>
      spec
        .given()
        .when({ type: 'Open', data: { id: 'd1' } })
        .thenNothingHappened(),
    ).toThrow();
  });

  it('checks rejections by fields, class or predicate, and fails when nothing was rejected', () => {
    const closed: Closed = { type: 'Closed', data: { id: 'd1' } };
    const error = spec
      .given([opened, closed])
      .when({ type: 'Open', data: { id: 'd1' } })
      .thenThrows({ status: 409, message: 'A closed door stays closed.' });
    expect((error as AppError).code).toBe('CONFLICT');
    spec
      .given()
      .when({ type: 'Close', data: { id: 'd1' } })
      .thenThrows(Error);
    spec
      .given()
      .when({ type: 'Close', data: { id: 'd1' } })
      .thenThrows((e) => e.message.startsWith('Only'));
    expect(() =>
      spec
        .given()
        .when({ type: 'Close', data: { id: 'd1' } })
        .thenThrows({ status: 404 }),
    ).toThrow();
    expect(() =>
      spec
        .given()
        .when({ type: 'Open', data: { id: 'd1' } })
        .thenThrows(),
    ).toThrow(/expected the command to be rejected/);
    spec
      .given([opened])
      .when({ type: 'Open', data: { id: 'd1' } })
      .thenNothingHappened();
  });
});
