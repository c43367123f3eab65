import type { PublicProfile } from '../identity.js';
import { profilePath } from './page-meta.js';

/*
 * The embeddable ask button (issue 15, docs/adr/0030): its words, colours and the copy-paste snippets. Pure, shared by
 * the BFF's `/embed/{username}` card and Account Settings (which shows the snippets).
 */

/** Where the framable card lives: `/embed/{username}`. */
export const EMBED_PREFIX = '/embed/';
export const DEFAULT_BRAND_MAIN = '#1A140F';
export const DEFAULT_BRAND_LIGHT = '#FAF6F2';
const HEX = /^#[0-9a-f]{6}$/i;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** A brand colour as stored, or the default when it is not a `#RRGGBB` hex colour. */
export const brandColor = (value: string | undefined, fallback: string) => (value && HEX.test(value) ? value : fallback);

/** Black or white, whichever contrasts more with `hex` (WCAG relative luminance). */
export function textOn(hex: string): '#000000' | '#FFFFFF' {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#FFFFFF' : '#000000';
}

type EmbedProfile = Pick<PublicProfile, 'username' | 'name' | 'archiveProfile' | 'brandColorMain'>;

/** The button's words (an archive takes no questions: its card links to the answers). */
export const embedLabel = (p: Pick<PublicProfile, 'name' | 'archiveProfile'>) =>
  p.archiveProfile ? `View ${p.name}'s answers` : `Ask ${p.name} a question`;

/** The copy-paste snippets: a plain link styled as a button (works everywhere, no frame), and the framed card. */
export function embedSnippets(origin: string, profile: EmbedProfile): { link: string; iframe: string } {
  const base = origin.replace(/\/+$/, '');
  const main = brandColor(profile.brandColorMain, DEFAULT_BRAND_MAIN);
  const label = escapeHtml(embedLabel(profile));
  const href = escapeHtml(`${base}${profilePath(profile.username)}`);
  return {
    link:
      `<a href="${href}" target="_blank" rel="noopener" style="display:inline-block;padding:12px 20px;border-radius:8px;` +
      `background:${main};color:${textOn(main)};font:600 16px system-ui,sans-serif;text-decoration:none">${label}</a>`,
    iframe:
      `<iframe src="${escapeHtml(`${base}${EMBED_PREFIX}${encodeURIComponent(profile.username)}`)}" title="${label}" ` +
      `width="320" height="80" style="border:0" loading="lazy"></iframe>`,
  };
}
