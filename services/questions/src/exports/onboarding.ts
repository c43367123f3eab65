import type { Kysely } from 'kysely';
import { isUuid, onboardingInternalCalls } from '@ques/contracts';
import { routeFor, type HttpApp } from '@ques/kit';
import type { QuestionsDB } from '../db/schema.js';

/**
 * Questions' fact for the owner's set-up checklist (issue 28, docs/adr/0056), read by identity: at least one answer
 * is on the owner's public page (answered or curated, shown on the profile, not private, not deleted or hidden).
 */
export function registerOnboardingFactsRoute(app: HttpApp, db: Kysely<QuestionsDB>): void {
  routeFor(app, onboardingInternalCalls.questions, async (request) => {
    const { userId } = request.params;
    if (!isUuid(userId)) return { publicAnswer: false };
    const row = await db
      .selectFrom('questions')
      .select('id')
      .where('to_user_id', '=', userId.toLowerCase())
      .where('lifecycle', '=', 'answered')
      .where('display_on_profile', '=', true)
      .where('deleted_by_receiver', '=', false)
      .where('asker_private', '=', false)
      .where('hidden_reason', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return { publicAnswer: row !== undefined };
  });
}
