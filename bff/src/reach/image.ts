import { Resvg } from '@resvg/resvg-js';
import satori, { type SatoriOptions } from 'satori';
import sharp from 'sharp';
import { SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH, type ShareCard } from '@ques/contracts/core';
import { baseFonts, cjkFontsFor, emojiDataUri, FONT_FAMILY } from './fonts.js';

/*
 * The share image of an answer or a profile (docs/adr/0029): a 1200×630 card laid out by satori (flexbox → SVG with
 * the text as paths) and rasterised by resvg (Rust, prebuilt per platform). Long text is clamped to its lines with
 * an ellipsis inside fixed boxes, so nothing reaches past the card whatever the language; emoji are Twemoji images.
 * No `overflow: hidden` anywhere: satori turns each into a clip path that resvg renders as a full-canvas layer (one
 * render took 1 s with five of them, 50 ms without); the clamps keep the text in its boxes instead.
 */

type Node = { type: string; props: Record<string, unknown> & { children?: unknown; style?: Record<string, unknown> } };
const h = (type: string, style: Record<string, unknown>, children?: unknown, extra: Record<string, unknown> = {}): Node => ({
  type,
  props: { style, ...extra, ...(children === undefined ? {} : { children }) },
});

const HEX = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i;
const DEFAULT_MAIN = '#4f46e5';
const DEFAULT_LIGHT = '#eef2ff';
const colour = (value: string, fallback: string) => (HEX.test(value.trim()) ? value.trim() : fallback);

function luminance(hex: string): number {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const initials = (name: string) =>
  [...name.trim().split(/\s+/).slice(0, 2).map((w) => [...w][0] ?? '').join('')].join('').toUpperCase() || '?';

/** Text in a box that clamps to `lines` lines with an ellipsis (and clips, should a glyph still reach further). */
const clamped = (text: string, lines: number, fontSize: number, style: Record<string, unknown> = {}) =>
  h(
    'div',
    {
      display: 'block',
      lineClamp: lines,
      fontSize,
      lineHeight: 1.3,
      flexShrink: 0,
      width: '100%',
      wordBreak: 'break-word',
      ...style,
    },
    text,
  );

/** The card as satori's element tree (plain objects: no React on the server for this). */
export function cardTree(card: ShareCard, avatar: string | null): Node {
  const main = colour(card.main, DEFAULT_MAIN);
  const light = colour(card.light, DEFAULT_LIGHT);
  const dark = luminance(light) < 0.4;
  const ink = dark ? '#ffffff' : '#111827';
  const muted = dark ? '#e5e7eb' : '#374151';
  const onMain = luminance(main) < 0.4 ? '#ffffff' : '#111827';

  const avatarNode = avatar
    ? h('img', { width: 104, height: 104, borderRadius: 52, objectFit: 'cover', border: `4px solid ${main}` }, undefined, {
        src: avatar,
        width: 104,
        height: 104,
      })
    : h(
        'div',
        {
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          width: 104,
          height: 104,
          borderRadius: 52,
          backgroundColor: main,
          color: onMain,
          fontSize: 44,
          fontWeight: 700,
        },
        initials(card.name),
      );

  const footer = h(
    'div',
    { display: 'flex', alignItems: 'center', width: '100%', height: 120, flexShrink: 0 },
    [
      avatarNode,
      h('div', { display: 'flex', flexDirection: 'column', marginLeft: 24, flexGrow: 1, flexShrink: 1, minWidth: 0, maxWidth: 760 }, [
        clamped(card.name, 1, 38, { fontWeight: 700, color: ink }),
        clamped(card.archive ? `Curated archive · @${card.username}` : `@${card.username} on Ques`, 1, 26, { color: muted }),
      ]),
      h(
        'div',
        {
          display: 'flex',
          padding: '10px 24px',
          borderRadius: 999,
          backgroundColor: main,
          color: onMain,
          fontSize: 30,
          fontWeight: 700,
          flexShrink: 0,
        },
        'Ques',
      ),
    ],
  );

  const body =
    card.kind === 'answer'
      ? [
          clamped(card.question, 3, 48, { fontWeight: 700, color: ink }),
          h('div', { display: 'flex', width: 120, height: 8, borderRadius: 4, backgroundColor: main, margin: '24px 0', flexShrink: 0 }),
          clamped(card.answer, 3, 30, { color: muted }),
        ]
      : [
          clamped(`Ask ${card.name} anything`, 2, 60, { fontWeight: 700, color: ink }),
          h('div', { display: 'flex', width: 120, height: 8, borderRadius: 4, backgroundColor: main, margin: '24px 0', flexShrink: 0 }),
          clamped(card.answer || 'Questions and answers on Ques.', 3, 30, { color: muted }),
        ];

  return h(
    'div',
    {
      display: 'flex',
      width: SHARE_IMAGE_WIDTH,
      height: SHARE_IMAGE_HEIGHT,
      backgroundColor: light,
      fontFamily: FONT_FAMILY,
    },
    [
      h('div', { display: 'flex', width: 24, height: '100%', backgroundColor: main, flexShrink: 0 }),
      h(
        'div',
        {
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'space-between',
          width: SHARE_IMAGE_WIDTH - 24,
          height: '100%',
          padding: '56px 64px 48px 64px',
        },
        [h('div', { display: 'flex', flexDirection: 'column', width: '100%', flexShrink: 1, maxHeight: 400 }, body), footer],
      ),
    ],
  );
}

/** Satori's options for a card: the base fonts, CJK subsets and emoji as the text needs them. */
async function satoriOptions(extra: Partial<SatoriOptions> = {}): Promise<SatoriOptions> {
  return {
    width: SHARE_IMAGE_WIDTH,
    height: SHARE_IMAGE_HEIGHT,
    fonts: await baseFonts(),
    loadAdditionalAsset: async (code: string, segment: string) => {
      if (code === 'emoji') return emojiDataUri(segment) ?? '';
      return cjkFontsFor(segment);
    },
    ...extra,
  };
}

/** The card as SVG (text as paths); `onNode` sees every laid-out node (the tests check nothing leaves the card). */
export async function renderCardSvg(
  card: ShareCard,
  avatar: string | null,
  onNode?: SatoriOptions['onNodeDetected'],
): Promise<string> {
  return satori(cardTree(card, avatar) as never, await satoriOptions(onNode ? { onNodeDetected: onNode } : {}));
}

/** The card as a 1200×630 PNG. */
export async function renderCardPng(card: ShareCard, avatar: string | null): Promise<Buffer> {
  const svg = await renderCardSvg(card, avatar);
  const image = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render();
  // libpng through sharp at a low compression level: about half of resvg's own encoder's time, for a few more bytes.
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 4 } })
    .removeAlpha()
    .png({ compressionLevel: 3 })
    .toBuffer();
}
