import { describe, expect, it } from 'vitest';
import { StatementNames } from './prepared-statements.js';

describe('StatementNames', () => {
  it('names a text from its threshold-th sighting on, always with the same name', () => {
    const names = new StatementNames({ threshold: 3, maxNames: 10, maxTracked: 100 });
    expect(names.nameFor('select $1')).toBeUndefined();
    expect(names.nameFor('select $1')).toBeUndefined();
    const name = names.nameFor('select $1');
    expect(name).toMatch(/^k[0-9a-f]{20}$/);
    expect(names.nameFor('select $1')).toBe(name);
    expect(names.nameFor('select $2')).toBeUndefined();
  });

  it('names at most maxNames texts; the ones named stay named', () => {
    const names = new StatementNames({ threshold: 1, maxNames: 2, maxTracked: 100 });
    const a = names.nameFor('a $1');
    const b = names.nameFor('b $1');
    expect([a, b].every(Boolean)).toBe(true);
    expect(names.nameFor('c $1')).toBeUndefined();
    expect(names.nameFor('a $1')).toBe(a);
    expect(names.size).toBe(2);
  });

  it('forgets texts seen too few times when there are too many of them, so one-off texts cannot grow memory', () => {
    const names = new StatementNames({ threshold: 2, maxNames: 10, maxTracked: 3 });
    for (const text of ['a', 'b', 'c']) names.nameFor(text);
    names.nameFor('d'); // the fourth one-off text: the counts start over
    expect(names.nameFor('a')).toBeUndefined();
    expect(names.nameFor('a')).toMatch(/^k/);
  });
});
