import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Font } from 'satori';

/*
 * The share images' fonts and emoji (docs/adr/0029), all from npm packages (no download at run time):
 * - Noto Sans (Latin, Latin Extended), Noto Sans Hebrew and Noto Sans Arabic, 400 and 700, as woff (satori reads
 *   ttf/otf/woff, not woff2): ~0.5 MB, loaded once;
 * - Noto Sans SC (Chinese ideographs, kana) and Noto Sans KR (Hangul): Fontsource splits each into ~100 subsets by
 *   unicode-range (its `unicode.json`); only the subsets a text needs are read, when it needs them, and kept;
 * - Twemoji from `@iconify-json/twemoji` (SVG bodies keyed by code point): an emoji is drawn as an image.
 */

const require = createRequire(import.meta.url);
const fileOf = (pkg: string, file: string) => require.resolve(`${pkg}/files/${file}`);

type Weight = 400 | 700;
/** Each subset under a family name of its own: satori keys fonts by name and weight, then falls back glyph by glyph. */
const STATIC: { pkg: string; stem: string; subset: string; family: string }[] = [
  { pkg: '@fontsource/noto-sans', stem: 'noto-sans', subset: 'latin', family: 'Noto Sans' },
  { pkg: '@fontsource/noto-sans', stem: 'noto-sans', subset: 'latin-ext', family: 'Noto Sans Latin Ext' },
  { pkg: '@fontsource/noto-sans-hebrew', stem: 'noto-sans-hebrew', subset: 'hebrew', family: 'Noto Sans Hebrew' },
  { pkg: '@fontsource/noto-sans-arabic', stem: 'noto-sans-arabic', subset: 'arabic', family: 'Noto Sans Arabic' },
];
export const FONT_FAMILY = STATIC.map((f) => `'${f.family}'`).join(', ');

let staticFonts: Promise<Font[]> | null = null;
/** The fonts every image gets (one family name, so satori falls back across them glyph by glyph). */
export function baseFonts(): Promise<Font[]> {
  return (staticFonts ??= Promise.all(
    STATIC.flatMap(({ pkg, stem, subset, family }) =>
      ([400, 700] as Weight[]).map(async (weight) => ({
        name: family,
        weight,
        style: 'normal' as const,
        data: await readFile(fileOf(pkg, `${stem}-${subset}-${weight}-normal.woff`)),
      })),
    ),
  ));
}

// ---- CJK, by subset ----

/** Simplified Chinese (with kana) first, then Korean for Hangul; each split by Fontsource into unicode-range subsets. */
const CJK = [
  { pkg: '@fontsource/noto-sans-sc', stem: 'noto-sans-sc' },
  { pkg: '@fontsource/noto-sans-kr', stem: 'noto-sans-kr' },
];
interface Subset {
  pkg: string;
  file: (weight: Weight) => string;
  family: string;
  ranges: [number, number][];
}
let cjkSubsets: Subset[] | null = null;
function subsets(): Subset[] {
  if (cjkSubsets) return cjkSubsets;
  cjkSubsets = CJK.flatMap(({ pkg, stem }) => {
    const dir = dirname(require.resolve(`${pkg}/LICENSE`));
    const table = JSON.parse(readFileSync(join(dir, 'unicode.json'), 'utf8')) as Record<string, string>;
    return Object.entries(table).map(([key, value]) => {
      const id = key.replace(/^\[|\]$/g, '');
      return {
        pkg,
        file: (weight: Weight) => `${stem}-${id}-${weight}-normal.woff`,
        family: `${stem} ${id}`,
        ranges: value.split(',').map((part): [number, number] => {
          const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
          const start = parseInt(from!, 16);
          return [start, to ? parseInt(to, 16) : start];
        }),
      };
    });
  });
  return cjkSubsets;
}
const cjkLoaded = new Map<string, Promise<Font[]>>();

/** The CJK subsets that cover the characters of `text` (each read once, then kept). */
export async function cjkFontsFor(text: string): Promise<Font[]> {
  const wanted = new Map<string, Subset>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x1100) continue;
    // Hangul from the Korean font (the Chinese one's ranges name a few syllables it then lacks).
    const hangul = (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0xac00 && cp <= 0xd7af);
    const covers = (s: Subset) => s.ranges.some(([a, b]) => cp >= a && cp <= b);
    const subset = hangul
      ? (subsets().find((s) => s.pkg.endsWith('-kr') && covers(s)) ?? subsets().find(covers))
      : subsets().find(covers);
    if (subset) wanted.set(subset.family, subset);
  }
  const fonts = await Promise.all(
    [...wanted.values()].map((subset) => {
      let loaded = cjkLoaded.get(subset.family);
      if (!loaded) {
        loaded = Promise.all(
          ([400, 700] as Weight[]).map(async (weight) => ({
            name: subset.family,
            weight,
            style: 'normal' as const,
            data: await readFile(fileOf(subset.pkg, subset.file(weight))),
          })),
        );
        loaded.catch(() => cjkLoaded.delete(subset.family));
        cjkLoaded.set(subset.family, loaded);
      }
      return loaded;
    }),
  );
  return fonts.flat();
}

// ---- emoji ----

interface IconSet {
  icons: Record<string, { body: string; width?: number; height?: number }>;
  aliases?: Record<string, { parent: string }>;
  width?: number;
  height?: number;
}
let emoji: { chars: Record<string, string>; set: IconSet } | null = null;
const emojiUris = new Map<string, string | null>();

/** An emoji (one grapheme) as an SVG data URI, or null when the set has no such emoji. */
export function emojiDataUri(segment: string): string | null {
  const cached = emojiUris.get(segment);
  if (cached !== undefined) return cached;
  emoji ??= {
    chars: JSON.parse(readFileSync(require.resolve('@iconify-json/twemoji/chars.json'), 'utf8')) as Record<string, string>,
    set: JSON.parse(readFileSync(require.resolve('@iconify-json/twemoji/icons.json'), 'utf8')) as IconSet,
  };
  const points = [...segment].map((c) => c.codePointAt(0)!.toString(16));
  const name = emoji.chars[points.join('-')] ?? emoji.chars[points.filter((p) => p !== 'fe0f').join('-')];
  const icon = name ? (emoji.set.icons[name] ?? emoji.set.icons[emoji.set.aliases?.[name]?.parent ?? '']) : undefined;
  let uri: string | null = null;
  if (icon) {
    const w = icon.width ?? emoji.set.width ?? 36;
    const h = icon.height ?? emoji.set.height ?? 36;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">${icon.body}</svg>`;
    uri = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  }
  if (emojiUris.size > 2_000) emojiUris.clear();
  emojiUris.set(segment, uri);
  return uri;
}
