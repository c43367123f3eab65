import { z } from 'zod';
import { NEXT_CURSOR_HEADER } from '../core/questions.js';
import { defineCall } from './call.js';

/*
 * What the BFF's XML sitemap lists (docs/adr/0024): public profiles and answered public questions, page by page.
 * Public data only (what the public pages show anyway). Both are answered by questions, from its own tables: the
 * public answers are its rows, and the profiles its read model of identity's users (`recipients`, kept from
 * identity's events, without deleted accounts).
 */

/** Entries per sitemap file (the sitemap protocol allows 50,000; smaller files render and compress faster). */
export const SITEMAP_PAGE_SIZE = 5_000;

const ZSitemapQuery = z.object({
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(SITEMAP_PAGE_SIZE).default(SITEMAP_PAGE_SIZE),
});

export const ZSitemapProfile = z.strictObject({ username: z.string(), updatedAt: z.string() });
export const ZSitemapAnswer = z.strictObject({
  id: z.string(),
  username: z.string(),
  question: z.string(),
  updatedAt: z.string(),
});
export type SitemapProfile = z.infer<typeof ZSitemapProfile>;
export type SitemapAnswer = z.infer<typeof ZSitemapAnswer>;

const CURSOR = 'This sitemap cursor is not valid.';

export const sitemapApi = {
  profiles: defineCall({
    id: 'listSitemapProfiles',
    method: 'GET',
    path: '/api/sitemap/profiles',
    service: 'questions',
    summary: 'Public profiles for the XML sitemap, by username',
    description: `At most \`limit\` usernames in order; the next page's cursor is in the \`${NEXT_CURSOR_HEADER}\` header.`,
    auth: 'none',
    errors: { 400: [CURSOR] },
    schema: { querystring: ZSitemapQuery, response: { 200: z.array(ZSitemapProfile) } },
  }),
  answers: defineCall({
    id: 'listSitemapAnswers',
    method: 'GET',
    path: '/api/sitemap/answers',
    service: 'questions',
    summary: 'Answered public questions for the XML sitemap, by id',
    description: `At most \`limit\` answers in id order; the next page's cursor is in the \`${NEXT_CURSOR_HEADER}\` header.`,
    auth: 'none',
    errors: { 400: [CURSOR] },
    schema: { querystring: ZSitemapQuery, response: { 200: z.array(ZSitemapAnswer) } },
  }),
};
export const SITEMAP_MESSAGES = { cursor: CURSOR } as const;
