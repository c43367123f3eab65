import type { CSSProperties } from 'react';
import { DEFAULT_BRAND_COLOR_LIGHT, DEFAULT_BRAND_COLOR_MAIN } from '@ques/contracts/core';

const HEX = /^#([0-9a-f]{6})$/i;
const INK = '#1A140F';
const WHITE = '#FFFFFF';

export function normalizeHex(value: string | undefined | null, fallback: string): string {
  const v = (value ?? '').trim();
  if (HEX.test(v)) return v.toUpperCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(v);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toUpperCase();
  return fallback;
}

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG contrast ratio of two #RRGGBB colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * CSS variables for a pair of brand colours. Owners pick any colours, so text colours are derived to keep
 * AA contrast: text on the main colour is ink or white, and the "accent text" falls back to ink when the
 * main colour is too pale to read on the light one.
 */
export function themeVars(main?: string | null, light?: string | null): CSSProperties {
  const m = normalizeHex(main, DEFAULT_BRAND_COLOR_MAIN);
  const l = normalizeHex(light, DEFAULT_BRAND_COLOR_LIGHT);
  const onMain = contrastRatio(m, WHITE) >= contrastRatio(m, INK) ? WHITE : INK;
  const accentText = contrastRatio(m, l) >= 4.5 ? m : contrastRatio(INK, l) >= 4.5 ? INK : WHITE;
  const onLight = contrastRatio(INK, l) >= 4.5 ? INK : WHITE;
  return {
    '--brand-main': m,
    '--brand-light': l,
    '--on-brand-main': onMain,
    '--brand-text': accentText,
    '--on-brand-light': onLight,
  } as CSSProperties;
}
