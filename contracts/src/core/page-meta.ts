import { isDefaultAvatar } from './identity.js';
import { questionSlug } from './questions.js';

/*
 * Page metadata of spec §1/§2 as data: title, description, canonical URL, share image and schema.org JSON-LD, and the
 * list of head tags they become. One module for both sides: the BFF renders the tags into the HTML for clients that
 * run no JavaScript (bff/src/seo), the web app sets the same tags in `document.head` (web/src/lib/head.ts). Pure: the
 * public origin is always passed in (the configured one, never a request's Host header or a hard-coded domain).
 */

export const SITE_NAME = 'Ques';
/** Spec §1 default page metadata. */
export const DEFAULT_TITLE = 'Ques | Q&A Platform for Businesses and Professionals';
export const DEFAULT_DESCRIPTION =
  'Your personal FAQ. Let fans and customers ask you directly, once — and never repeat yourself again.';
/** The wide share image used when a page has no picture of its own (the default avatar is not one). */
export const DEFAULT_SHARE_IMAGE_PATH = '/images/og-default.png';
/** Spec §9: bio excerpt and answer description. */
export const EXCERPT_CHARS = 150;
/** Spec §9: structured data lists the first 2 questions. */
export const STRUCTURED_DATA_QUESTIONS = 2;
/** Longest title put into the tags: a 300-character question would push the share tags past the first 4 KB. */
export const TITLE_CHARS = 160;
/** The id of the one JSON-LD script a page carries (the browser replaces the server's, never adds a second). */
export const JSON_LD_ID = 'ques-structured-data';
/** The markers around the metadata block of the web app's index.html, which the BFF replaces per page. */
export const META_START = '<!--meta:start-->';
export const META_END = '<!--meta:end-->';

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute URL. */
  canonical: string;
  /** Absolute URL of the share image. */
  image: string;
  /** `summary` for a square avatar, `summary_large_image` for the wide default image. */
  twitterCard: 'summary' | 'summary_large_image';
  ogType: 'website' | 'profile' | 'article';
  /** schema.org data, rendered as one `<script type="application/ld+json" id={JSON_LD_ID}>`. */
  jsonLd: object | null;
  /** The page's Atom feed (issue 15: an owner's public answers), as `<link rel="alternate" type="application/atom+xml">`. */
  feed?: { href: string; title: string } | null;
}

export const FEED_TYPE = 'application/atom+xml';

/**
 * One tag of the metadata block; `headTags` lists them in the order they go into the document. A `meta` or `link` is
 * found by `attribute="key"` (`name="description"`, `property="og:url"`, `rel="canonical"`) and carries `value` in
 * `content` (meta) or `href` (link).
 */
export type HeadTag =
  | { kind: 'title'; text: string }
  | { kind: 'meta' | 'link'; attribute: 'name' | 'property' | 'rel'; key: string; value: string; type?: string; title?: string };

/** The attribute a `meta` or `link` tag carries its value in. */
export const valueAttribute = (kind: 'meta' | 'link') => (kind === 'link' ? 'href' : 'content');

/** First `max` characters, whitespace collapsed; an ellipsis only when something was cut. */
export function excerpt(text: string | null | undefined, max = EXCERPT_CHARS): string {
  const clean = (text ?? '').replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  return `${clean.slice(0, max - 1).trimEnd()}…`;
}

export const profilePath = (username: string) => `/ask/${encodeURIComponent(username)}`;

/** `/ask/{username}/question/{id}/{slug}`, the slug omitted when the question has no letters or digits. */
export function questionPath(username: string, id: string, question: string): string {
  const slug = questionSlug(question);
  const base = `${profilePath(username)}/question/${encodeURIComponent(id)}`;
  return slug ? `${base}/${encodeURIComponent(slug)}` : base;
}

/** `https://ques.app/` and `https://ques.app` are the same origin. */
export const trimOrigin = (origin: string) => origin.replace(/\/+$/, '');

/** An absolute http(s) URL on `origin` for a path (or an absolute URL the services returned); else the default image. */
function absoluteImage(origin: string, pathOrUrl: string): string {
  try {
    const url = new URL(pathOrUrl, `${origin}/`);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // not a URL: fall through to the default image
  }
  return `${origin}${DEFAULT_SHARE_IMAGE_PATH}`;
}

/** The owner's avatar as a square preview, or the wide default image when they have none. */
export function shareImage(origin: string, avatarUrl: string | undefined): Pick<PageMeta, 'image' | 'twitterCard'> {
  return isDefaultAvatar(avatarUrl)
    ? { image: `${origin}${DEFAULT_SHARE_IMAGE_PATH}`, twitterCard: 'summary_large_image' }
    : { image: absoluteImage(origin, avatarUrl!), twitterCard: 'summary' };
}

/** Any other page: its own title, description and canonical path; the default share image; no structured data. */
export function pageMeta(origin: string, page: { title: string; description: string; path: string }): PageMeta {
  const base = trimOrigin(origin);
  return {
    title: page.title,
    description: page.description,
    canonical: `${base}${page.path}`,
    image: `${base}${DEFAULT_SHARE_IMAGE_PATH}`,
    twitterCard: 'summary_large_image',
    ogType: 'website',
    jsonLd: null,
  };
}

/** Spec §1 default metadata (the home page, and every page that sets none of its own). */
export const defaultMeta = (origin: string, path = '/') =>
  pageMeta(origin, { title: DEFAULT_TITLE, description: DEFAULT_DESCRIPTION, path });

/**
 * The tags of a page's metadata block. The five a share preview needs (title, description, canonical, og:image,
 * twitter:card) come first and the title is bounded, so a server that renders them puts them in the first 4 KB of the
 * document whatever the owner wrote. The JSON-LD is not a tag here: it goes last (`jsonForScript`).
 */
export function headTags(meta: PageMeta): HeadTag[] {
  const title = excerpt(meta.title, TITLE_CHARS);
  const name = (key: string, value: string): HeadTag => ({ kind: 'meta', attribute: 'name', key, value });
  const property = (key: string, value: string): HeadTag => ({ kind: 'meta', attribute: 'property', key, value });
  return [
    { kind: 'title', text: title },
    name('description', meta.description),
    { kind: 'link', attribute: 'rel', key: 'canonical', value: meta.canonical },
    property('og:image', meta.image),
    name('twitter:card', meta.twitterCard),
    property('og:type', meta.ogType),
    property('og:site_name', SITE_NAME),
    property('og:title', title),
    property('og:description', meta.description),
    property('og:url', meta.canonical),
    name('twitter:title', title),
    name('twitter:description', meta.description),
    name('twitter:image', meta.image),
    ...(meta.feed
      ? [{ kind: 'link', attribute: 'rel', key: 'alternate', value: meta.feed.href, type: FEED_TYPE, title: meta.feed.title } as HeadTag]
      : []),
  ];
}

/**
 * JSON for a `<script type="application/ld+json">`: `<` (and `>`, `&`) as `\u` escapes so user text can never close
 * the element or open a comment; U+2028/2029 escaped as well. Still valid JSON with the same value.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
