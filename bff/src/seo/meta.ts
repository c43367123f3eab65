import { questionSlug, type PublicProfile, type PublicQuestion } from '@ques/contracts';

/*
 * The page metadata of spec §2 (public profile, answered-question page) as HTML, for clients that run no
 * JavaScript (facebookexternalhit, Twitterbot, search engines). Pure: no I/O. The web app sets the same tags
 * in the browser (web/src/lib/head.ts); the titles, descriptions and canonical paths here must stay equal to
 * what it computes.
 */

export const META_START = '<!--meta:start-->';
export const META_END = '<!--meta:end-->';
/** Spec §9: bio excerpt and answer description. */
export const EXCERPT_CHARS = 150;
/** Spec §9: structured data lists the first 2 questions. */
export const STRUCTURED_DATA_QUESTIONS = 2;
/** Longest title put into the tags: a 300-character question would push the share tags past the first 4 KB. */
const TITLE_CHARS = 160;
export const DEFAULT_AVATAR_PATH = '/images/user-image.png';
export const DEFAULT_SHARE_IMAGE_PATH = '/images/og-default.png';
/** The id the web app's `applyHead` replaces, so the browser never ends up with two JSON-LD blocks. */
export const JSON_LD_ID = 'ques-structured-data';

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
  jsonLd: object | null;
}

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

/**
 * JSON for a `<script type="application/ld+json">`: `<` (and `>`, `&`) as `\u` escapes so user text can never
 * close the element or open a comment; U+2028/2029 escaped as well. Still valid JSON with the same value.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** First `max` characters, whitespace collapsed; an ellipsis only when something was cut (web/src/lib/text.ts). */
export function excerpt(text: string | undefined, max = EXCERPT_CHARS): string {
  const clean = (text ?? '').replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  return `${clean.slice(0, max - 1).trimEnd()}…`;
}

const isDefaultAvatar = (url: string | undefined) =>
  !url || (url.split('?')[0] ?? '').endsWith(DEFAULT_AVATAR_PATH);

/** An absolute http(s) URL on `origin` for a path (or an absolute URL the services returned). */
function absolute(origin: string, pathOrUrl: string): string {
  try {
    const url = new URL(pathOrUrl, `${origin}/`);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? url.href
      : `${origin}${DEFAULT_SHARE_IMAGE_PATH}`;
  } catch {
    return `${origin}${DEFAULT_SHARE_IMAGE_PATH}`;
  }
}

export const profilePath = (username: string) => `/ask/${encodeURIComponent(username)}`;

/** `/ask/{username}/question/{id}/{slug}`, slug omitted when the question has no letters or digits. */
export function questionPath(username: string, id: string, question: string): string {
  const slug = questionSlug(question);
  const base = `${profilePath(username)}/question/${encodeURIComponent(id)}`;
  return slug ? `${base}/${encodeURIComponent(slug)}` : base;
}

function shareImage(origin: string, avatarUrl: string | undefined): Pick<PageMeta, 'image' | 'twitterCard'> {
  return isDefaultAvatar(avatarUrl)
    ? { image: `${origin}${DEFAULT_SHARE_IMAGE_PATH}`, twitterCard: 'summary_large_image' }
    : { image: absolute(origin, avatarUrl!), twitterCard: 'summary' };
}

/** Spec §2 public profile: "{name} — Ask Me Anything", bio excerpt, canonical, avatar, FAQPage of the first 2 answers. */
export function profileMeta(
  origin: string,
  profile: PublicProfile,
  answers: readonly PublicQuestion[],
): PageMeta {
  const first = answers.slice(0, STRUCTURED_DATA_QUESTIONS);
  return {
    title: `${profile.name} — Ask Me Anything`,
    description: profile.bio?.trim()
      ? excerpt(profile.bio)
      : `Ask ${profile.name} a question on Ques and read the answers they have already given.`,
    canonical: `${origin}${profilePath(profile.username)}`,
    ...shareImage(origin, profile.avatarUrl),
    ogType: 'profile',
    jsonLd:
      first.length > 0
        ? {
            '@context': 'https://schema.org',
            '@type': 'FAQPage',
            mainEntity: first.map((q) => ({
              '@type': 'Question',
              name: q.question,
              acceptedAnswer: { '@type': 'Answer', text: q.answer },
            })),
          }
        : null,
  };
}

/** Spec §2 answered-question page: answer excerpt as description, canonical with the slug, QAPage data. */
export function questionMeta(origin: string, profile: PublicProfile, question: PublicQuestion): PageMeta {
  return {
    title: `${question.question} — ${profile.name} on Ques`,
    description: excerpt(question.answer),
    canonical: `${origin}${questionPath(profile.username, question._id, question.question)}`,
    ...shareImage(origin, profile.avatarUrl),
    ogType: 'article',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'QAPage',
      mainEntity: {
        '@type': 'Question',
        name: question.question,
        text: question.detail || question.question,
        answerCount: 1,
        dateCreated: question.createdAt,
        acceptedAnswer: {
          '@type': 'Answer',
          text: question.answer,
          dateCreated: question.answeredAt ?? question.updatedAt ?? question.createdAt,
          url: `${origin}${questionPath(profile.username, question._id, question.question)}`,
          author: { '@type': 'Person', name: profile.name, url: `${origin}${profilePath(profile.username)}` },
        },
      },
    },
  };
}

/**
 * The tags that replace the default block. The five a share preview needs (title, description, canonical,
 * og:image, twitter:card) come first and are bounded in size, so they sit in the first 4 KB of the document
 * whatever the owner wrote; the JSON-LD (answers can be long) comes last.
 */
export function renderMetaBlock(meta: PageMeta): string {
  const title = escapeHtml(excerpt(meta.title, TITLE_CHARS));
  const description = escapeHtml(meta.description);
  const canonical = escapeHtml(meta.canonical);
  const image = escapeHtml(meta.image);
  const lines = [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${canonical}" />`,
    `<meta property="og:image" content="${image}" />`,
    `<meta name="twitter:card" content="${meta.twitterCard}" />`,
    `<meta property="og:type" content="${meta.ogType}" />`,
    `<meta property="og:site_name" content="Ques" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${canonical}" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
    `<meta name="twitter:image" content="${image}" />`,
  ];
  if (meta.jsonLd)
    lines.push(
      `<script type="application/ld+json" id="${JSON_LD_ID}">${jsonForScript(meta.jsonLd)}</script>`,
    );
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
