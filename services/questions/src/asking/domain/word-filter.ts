/*
 * Word filters (issue 16): an owner's blocked words and phrases, matched against a question's title and detail after
 * normalisation. Pure: no I/O.
 *
 * Normalisation, the same for the filter entry and the text:
 * - Unicode compatibility form, diacritics dropped (`bäädword` → `baadword`), lower case;
 * - common substitutions: 0→o, 3→e, 4→a, @→a, $→s, and 1 and l read as i (so `1` stands for both i and l); `!` and `|`
 *   read as i before a letter or digit;
 * - everything that is not a letter or digit splits the text into tokens (inserted punctuation or spaces).
 *
 * Matching is on WORD BOUNDARIES: an entry matches when a run of consecutive tokens, joined, spells it — so `b a d w o r
 * d`, `B.A.D.W.O.R.D` and `bad-word` match `badword`, while `class` does not match `ass` (`ass` is not a whole token
 * run of `class`). Repeated letters: each letter of the entry may appear at least as often as written, more is fine
 * (`baaadword` matches `badword`; `as` does not match `ass`).
 * The price of word boundaries: a blocked word glued to other letters (`xbadwordx`) passes. We accept it: substring
 * matching flags ordinary words (the "Scunthorpe problem"), which would refuse honest askers with no way to see why.
 */

/** Characters read as a letter they stand for. */
const SUBSTITUTIONS: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  l: 'i',
  '3': 'e',
  '4': 'a',
  '@': 'a',
  $: 's',
};

/** The text's tokens after normalisation (letters only; substitutions applied). */
export function tokens(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    // `!` and `|` stand for i inside a word (`b!tch`), and are punctuation at its end (`badword!`).
    .replace(/[!|](?=[\p{L}\p{N}])/gu, 'i');
  let mapped = '';
  for (const ch of folded) mapped += SUBSTITUTIONS[ch] ?? ch;
  return mapped.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
}

/** Runs of one letter: `baaad` → [['b',1],['a',3],['d',1]]. */
function runs(word: string): [string, number][] {
  const out: [string, number][] = [];
  for (const ch of word) {
    const last = out[out.length - 1];
    if (last && last[0] === ch) last[1] += 1;
    else out.push([ch, 1]);
  }
  return out;
}

const escape = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface CompiledEntry {
  /** The entry as the owner typed it. */
  entry: string;
  /** Matches the entry as a run of whole tokens in a text's tokens joined by `SEP`. */
  pattern: RegExp;
}

/** Joins a text's tokens for matching; never inside a token (tokens are letters and digits only). */
const SEP = '\u0000';

/** An entry ready to match; null when it has no letter or digit (nothing to match). */
export function compileEntry(entry: string): CompiledEntry | null {
  const joined = tokens(entry).join('');
  if (!joined) return null;
  // Each letter at least as often as written, more is fine, and a token boundary may fall anywhere inside the entry.
  const letterRuns = runs(joined);
  const body = letterRuns
    .map(([ch, n]) => `${escape(ch)}(?:\u0000?${escape(ch)}){${n - 1},}`)
    .join('\u0000?');
  // Starts and ends on a token boundary: whole words only. A start right after a token made only of the entry's first
  // letter is skipped — starting at that token matches too — so a run of one-letter tokens ("a a a a …") is scanned
  // from its first token only, not once per token (no quadratic work on hostile input).
  const first = escape(letterRuns[0]![0]);
  const start = `(?:^|(?<=\u0000))(?<!(?:^|\u0000)${first}+\u0000)`;
  return { entry, pattern: new RegExp(`${start}${body}(?=\u0000|$)`, 'u') };
}

export function compileFilter(entries: readonly string[]): CompiledEntry[] {
  return entries.map(compileEntry).filter((e): e is CompiledEntry => e !== null);
}

/** The first entry that `text` contains (on word boundaries), or null. */
export function findBlocked(text: string, filter: readonly CompiledEntry[]): string | null {
  if (filter.length === 0) return null;
  const line = tokens(text).join(SEP);
  for (const entry of filter) if (entry.pattern.test(line)) return entry.entry;
  return null;
}

/**
 * Ques' small built-in list, which an owner can switch on: common English slurs and abuse. Deliberately short — it is
 * a starting point, not a claim of complete moderation (the legal pages say so).
 */
export const BUILT_IN_WORDS: readonly string[] = [
  'fuck',
  'fucking',
  'motherfucker',
  'shit',
  'cunt',
  'bitch',
  'asshole',
  'dickhead',
  'bastard',
  'whore',
  'slut',
  'retard',
  'faggot',
  'nigger',
  'kill yourself',
  'kys',
];
