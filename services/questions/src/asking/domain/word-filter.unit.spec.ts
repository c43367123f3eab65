import { describe, expect, it } from 'vitest';
import { BUILT_IN_WORDS, compileEntry, compileFilter, findBlocked, tokens } from './word-filter.js';

const owner = compileFilter(['badword', 'ass', 'hell', 'bad phrase here', 'crème brûlée']);

// [text, the entry it must be refused for (null: it must pass)]
const TABLE: [string, string | null][] = [
  // the four, and more ways to write `badword`
  ['b4dw0rd', 'badword'],
  ['B.A.D.W.O.R.D', 'badword'],
  ['bäädword', 'badword'],
  ['baaadword', 'badword'],
  ['BADWORD', 'badword'],
  ['you are a badword!', 'badword'],
  ['b a d w o r d', 'badword'],
  ['bad-word', 'badword'],
  ['bad_word', 'badword'],
  ['b@dw0rd', 'badword'],
  ['BaDwOrD?', 'badword'],
  ['bbbaaaddddwwwoooorrrrddd', 'badword'],
  ['(badword)', 'badword'],
  ['ｂａｄｗｏｒｄ', 'badword'], // full-width letters (compatibility form)
  ['a$$', 'ass'],
  ['what an ass', 'ass'],
  ['4ss', 'ass'],
  ['he11', 'hell'],
  ['HELL yes', 'hell'],
  ['h.e.l.l', 'hell'],
  ['this is a bad phrase here, ok', 'bad phrase here'],
  ['bad   phrase\nhere', 'bad phrase here'],
  ['b4d phr4s3 h3r3', 'bad phrase here'],
  ['creme brulee', 'crème brûlée'],
  ['a a a a ss', 'ass'], // a run of one-letter tokens is matched from its first token
  ['xa a ss', 'ass'], // …and from a token boundary inside a word's trailing run
  ['hhh e l l', 'hell'],
  // ordinary text passes
  ['What is your favourite class at school?', null],
  ['How do you assess a passport application?', null],
  ['Is the bass guitar hard to learn?', null],
  ['As far as I know, it is fine.', null],
  ['Hello, how are you?', null],
  ['Shell scripting tips?', null],
  ['What bad words do toddlers say?', null], // "bad" then "words": not the entry `badword`
  ['A bad word', 'badword'], // inserted spaces count: the price of catching `b a d w o r d`
  ['Bad weather, word of mouth', null],
  ['The word was bad', null],
  ['Is this phrase bad here?', null],
  ['I paid $5.00 for it', null],
  ['Room 101 at 4 pm', null],
  ['Assassin movies you like?', null],
  ['Crème fraîche or brûlée?', null],
  ['', null],
  ['a a a a a a a a a a a a', null],
  ['ss aaa', null], // letters in the wrong order
];

describe('word filter (normalised, word-boundary matching)', () => {
  it('has a table of at least 30 cases, both ways', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
    expect(TABLE.filter(([, hit]) => hit === null).length).toBeGreaterThanOrEqual(12);
    expect(TABLE.filter(([, hit]) => hit !== null).length).toBeGreaterThanOrEqual(12);
  });

  it.each(TABLE)('%j → %s', (text, expected) => {
    expect(findBlocked(text, owner)).toBe(expected);
  });

  it('normalises case, diacritics and substitutions into tokens', () => {
    expect(tokens('B.A.D W0RD, Bääd!')).toEqual(['b', 'a', 'd', 'word', 'baad']);
  });

  it('ignores entries with nothing to match and matches nothing without entries', () => {
    expect(compileEntry('  ...  ')).toBeNull();
    expect(findBlocked('badword', [])).toBeNull();
    expect(findBlocked('badword', compileFilter(['---']))).toBeNull();
  });

  it('the built-in list catches its words written with substitutions and passes ordinary text', () => {
    const builtIn = compileFilter(BUILT_IN_WORDS);
    expect(findBlocked('k1ll y0urs3lf', builtIn)).toBe('kill yourself');
    expect(findBlocked('you b!tch', builtIn)).toBe('bitch');
    expect(findBlocked('Which skills should a junior developer learn first?', builtIn)).toBeNull();
    expect(findBlocked('Shitake or shiitake mushrooms?', builtIn)).toBeNull();
  });
});
