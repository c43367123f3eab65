/*
 * Word filters (issue 16): an owner's blocked words and phrases, matched against a question's title and detail after
 * normalisation. Pure: no I/O.
 *
 * Normalisation, the same for the filter entry and the text:
 * - Unicode compatibility form, diacritics dropped (`bäädword` → `baadword`), lower case;
 * - common substitutions: 0→o, 3→e, 4→a, @→a, $→s, and 1 and l read as i (so `1` stands for both i and l); `!` and `|`
 *   read as i before a letter or digit;
 * - everything that is not a letter splits the text into tokens (inserted punctuation or spaces).
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
  /** Matches a whole joined token run. */
  pattern: RegExp;
  /** Letters of the entry with repeats collapsed: a joined run longer than this (collapsed) cannot match. */
  collapsedLength: number;
}

/** An entry ready to match; null when it has no letter or digit (nothing to match). */
export function compileEntry(entry: string): CompiledEntry | null {
  const joined = tokens(entry).join('');
  if (!joined) return null;
  const letterRuns = runs(joined);
  const body = letterRuns.map(([ch, n]) => `${escape(ch)}{${n},}`).join('');
  return { entry, pattern: new RegExp(`^${body}$`, 'u'), collapsedLength: letterRuns.length };
}

export function compileFilter(entries: readonly string[]): CompiledEntry[] {
  return entries.map(compileEntry).filter((e): e is CompiledEntry => e !== null);
}

/** The first entry that `text` contains (on word boundaries), or null. */
export function findBlocked(text: string, filter: readonly CompiledEntry[]): string | null {
  if (filter.length === 0) return null;
  const words = tokens(text);
  const collapsed = words.map((w) => runs(w).length);
  for (const entry of filter) {
    for (let start = 0; start < words.length; start += 1) {
      let joined = '';
      let lastChar = '';
      let length = 0;
      for (let end = start; end < words.length; end += 1) {
        const word = words[end]!;
        // Collapsed length of the joined run: a run that continues the previous letter adds one less.
        length += collapsed[end]! - (word[0] === lastChar ? 1 : 0);
        if (length > entry.collapsedLength) break;
        joined += word;
        lastChar = word[word.length - 1]!;
        if (entry.pattern.test(joined)) return entry.entry;
      }
    }
  }
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
