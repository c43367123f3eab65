import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { STATUS_PAGE_PATH } from '@ques/contracts';
import type { QuestionsDB } from '../db/schema.js';

/*
 * Links to a question's private status page (issue 14): 32 random bytes (256 bits, base64url) that only the mail or
 * the signed-in asker ever sees; the table keeps their SHA-256, so a read of the database opens no page.
 */

export const newStatusToken = (): string => randomBytes(32).toString('base64url');
export const hashStatusToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const statusPageUrl = (origin: string, token: string) => `${origin}${STATUS_PAGE_PATH}${token}`;

/** A new link to `questionId`'s page, stored hashed; returns the token (the only time it exists in clear). */
export async function createStatusLink(
  db: Kysely<QuestionsDB>,
  questionId: string,
  opts: { guest: boolean; now: Date },
): Promise<string> {
  const { token, insert } = statusLinkInsert(db, questionId, opts);
  await insert.execute();
  return token;
}

/** A new link's token and the insert that stores it, for a caller that sends it with other writes (ADR 0049). */
export function statusLinkInsert(db: Kysely<QuestionsDB>, questionId: string, opts: { guest: boolean; now: Date }) {
  const token = newStatusToken();
  const insert = db.insertInto('status_links').values({
    token_hash: hashStatusToken(token),
    question_id: questionId,
    guest: opts.guest,
    created_at: opts.now,
  });
  return { token, insert };
}

/**
 * The link the asker's browser made while asking (issue 28: the page after asking or paying opens at once, and a
 * retry of the same request names the same link). Stored only with the question's creation, never added to an
 * existing question, so a token someone chose only ever opens their own question. It is not a guest link: opening
 * it proves no address. A hash already stored (a token reused) keeps its question.
 */
export function browserLinkInsert(db: Kysely<QuestionsDB>, questionId: string, token: string, now: Date) {
  return db
    .insertInto('status_links')
    .values({ token_hash: hashStatusToken(token), question_id: questionId, guest: false, created_at: now })
    .onConflict((oc) => oc.column('token_hash').doNothing());
}

/**
 * The guest link of a question, locked (`FOR UPDATE`): the answer's side effect and the confirmation take the same
 * row lock, so the answer e-mail goes out exactly once, whichever comes first.
 */
export function lockGuestLink(db: Kysely<QuestionsDB>, questionId: string) {
  return db
    .selectFrom('status_links')
    .selectAll()
    .where('question_id', '=', questionId)
    .where('guest', '=', true)
    .forUpdate()
    .executeTakeFirst();
}
