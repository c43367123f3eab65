import type { Kysely } from 'kysely';
import { NEXT_CURSOR_HEADER, SITEMAP_MESSAGES, sitemapApi, type SitemapAnswer, type SitemapProfile } from '@ques/contracts';
import { badRequest, routeFor, type HttpApp } from '@ques/kit';
import type { QuestionsDB } from '../db/schema.js';

/*
 * The sitemap's listings (contracts/src/api/sitemap.ts; docs/adr/0024): public profiles from the recipients read
 * model (identity's users as questions keeps them, deleted accounts excluded) and the answered questions the public
 * pages show. Keyset pages in a stable order (username, id); the cursor is the last key, base64url-encoded.
 */

const encode = (key: string) => Buffer.from(key, 'utf8').toString('base64url');
function decode(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!key || encode(key) !== cursor) throw badRequest(SITEMAP_MESSAGES.cursor);
  return key;
}

export class SitemapReadModel {
  constructor(private readonly db: Kysely<QuestionsDB>) {}

  async profiles(limit: number, cursor?: string): Promise<{ items: SitemapProfile[]; nextCursor: string | null }> {
    const after = decode(cursor);
    let query = this.db
      .selectFrom('recipients')
      .select(['username', 'updated_at'])
      .where('deleted', '=', false)
      .where('username', '!=', '')
      .orderBy('username')
      .limit(limit + 1);
    if (after !== null) query = query.where('username', '>', after);
    const rows = await query.execute();
    const items = rows.slice(0, limit).map((r) => ({ username: r.username, updatedAt: new Date(r.updated_at).toISOString() }));
    return { items, nextCursor: rows.length > limit ? encode(items.at(-1)!.username) : null };
  }

  async answers(limit: number, cursor?: string): Promise<{ items: SitemapAnswer[]; nextCursor: string | null }> {
    const after = decode(cursor);
    let query = this.db
      .selectFrom('questions')
      .innerJoin('recipients', 'recipients.user_id', 'questions.to_user_id')
      .select(['questions.id', 'questions.to_username', 'questions.question', 'questions.public_question'])
      .select('questions.updated_at')
      .where('questions.lifecycle', '=', 'answered')
      .where('questions.display_on_profile', '=', true)
      .where('questions.deleted_by_receiver', '=', false)
      // Issue 14: the asker's "Private" is never public, whatever the owner toggles.
      .where('questions.asker_private', '=', false)
      .where('recipients.deleted', '=', false)
      .orderBy('questions.id')
      .limit(limit + 1);
    if (after !== null) query = query.where('questions.id', '>', after);
    const rows = await query.execute();
    const items = rows.slice(0, limit).map((r) => ({
      id: r.id,
      username: r.to_username,
      // The redacted public wording when there is one (its slug is in the URL).
      question: r.public_question ?? r.question,
      updatedAt: new Date(r.updated_at).toISOString(),
    }));
    return { items, nextCursor: rows.length > limit ? encode(items.at(-1)!.id) : null };
  }
}

export function registerSitemapRoutes(app: HttpApp, sitemap: SitemapReadModel): void {
  routeFor(app, sitemapApi.profiles, async (request, reply) => {
    const page = await sitemap.profiles(request.query.limit, request.query.cursor);
    if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return page.items;
  });
  routeFor(app, sitemapApi.answers, async (request, reply) => {
    const page = await sitemap.answers(request.query.limit, request.query.cursor);
    if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return page.items;
  });
}
