import {
  headTags,
  JSON_LD_ID,
  jsonForScript,
  META_END,
  META_START,
  valueAttribute,
  type HeadTag,
  type PageMeta,
} from '@ques/contracts/core';

/*
 * The page metadata of spec §2 as HTML, for clients that run no JavaScript (facebookexternalhit, Twitterbot, search
 * engines). What the tags say (titles, descriptions, canonical URLs, share images, JSON-LD) comes from
 * `@ques/contracts/core` (page-meta.ts), the module the web app sets `document.head` from: the two sides cannot
 * drift. This file only writes that data as markup and splices it into index.html. Pure: no I/O.
 */

/** Text for an HTML attribute or element: the five characters that can change the markup. */
const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const tagHtml = (tag: HeadTag): string =>
  tag.kind === 'title'
    ? `<title>${escapeHtml(tag.text)}</title>`
    : `<${tag.kind} ${tag.attribute}="${tag.key}"${tag.type ? ` type="${escapeHtml(tag.type)}"` : ''}${tag.title ? ` title="${escapeHtml(tag.title)}"` : ''} ${valueAttribute(tag.kind)}="${escapeHtml(tag.value)}" />`;

/**
 * The tags that replace the default block, in `headTags` order (the share preview's five first, bounded in size, so
 * they sit in the first 4 KB of the document whatever the owner wrote); the JSON-LD (answers can be long) comes last.
 */
export function renderMetaBlock(meta: PageMeta): string {
  const lines = headTags(meta).map(tagHtml);
  if (meta.jsonLd)
    lines.push(`<script type="application/ld+json" id="${JSON_LD_ID}">${jsonForScript(meta.jsonLd)}</script>`);
  return lines.join('\n    ');
}

/** index.html split around its default metadata block (null when the markers are missing). */
export interface IndexParts {
  head: string;
  tail: string;
}

export function splitIndexHtml(html: string): IndexParts | null {
  const start = html.indexOf(META_START);
  const end = html.indexOf(META_END, start);
  if (start < 0 || end < 0) return null;
  return { head: html.slice(0, start + META_START.length), tail: html.slice(end) };
}

export const withMetaBlock = (parts: IndexParts, block: string) =>
  `${parts.head}\n    ${block}\n    ${parts.tail}`;
