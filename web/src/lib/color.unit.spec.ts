import { describe, expect, it } from 'vitest';
import { contrastRatio, normalizeHex, themeVars } from './color';

const vars = (main?: string | null, light?: string | null) => themeVars(main, light) as Record<string, string>;

describe('normalizeHex', () => {
  it('upper-cases a valid #RRGGBB colour', () => {
    expect(normalizeHex('#1a140f', '#000000')).toBe('#1A140F');
  });

  it('expands #RGB', () => {
    expect(normalizeHex('#f80', '#000000')).toBe('#FF8800');
  });

  it('falls back for missing or invalid values', () => {
    expect(normalizeHex(undefined, '#FAF6F2')).toBe('#FAF6F2');
    expect(normalizeHex('red', '#FAF6F2')).toBe('#FAF6F2');
    expect(normalizeHex('#12345', '#FAF6F2')).toBe('#FAF6F2');
    expect(normalizeHex('javascript:alert(1)', '#FAF6F2')).toBe('#FAF6F2');
  });
});

describe('contrastRatio', () => {
  it('is 21 for black on white and 1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#FFFFFF', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1A140F', '#1A140F')).toBeCloseTo(1, 5);
  });
});

describe('themeVars', () => {
  it('uses the default brand colours (spec §3) when none are given', () => {
    const v = vars();
    expect(v['--brand-main']).toBe('#1A140F');
    expect(v['--brand-light']).toBe('#FAF6F2');
    expect(v['--on-brand-main']).toBe('#FFFFFF');
    expect(v['--brand-text']).toBe('#1A140F');
  });

  it('puts ink text on a pale main colour', () => {
    expect(vars('#FFE066', '#FFFFFF')['--on-brand-main']).toBe('#1A140F');
  });

  it('never uses a main colour as text where it fails AA on the light colour', () => {
    const v = vars('#FFE066', '#FAF6F2');
    expect(v['--brand-text']).toBe('#1A140F');
    expect(contrastRatio(v['--brand-text']!, v['--brand-light']!)).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps a dark enough main colour as the accent text', () => {
    expect(vars('#0B5FFF', '#FFFFFF')['--brand-text']).toBe('#0B5FFF');
  });

  it('ignores invalid colours instead of injecting them into CSS', () => {
    const v = vars('url(x)', 'nope');
    expect(v['--brand-main']).toBe('#1A140F');
    expect(v['--brand-light']).toBe('#FAF6F2');
  });
});
