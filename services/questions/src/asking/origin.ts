import type { QueryCreator } from 'kysely';
import type { QuestionsDB } from '../db/schema.js';

/** The values of a question's origin row (`recordOrigin`; with `recordOriginAndRead`'s template, its placeholders). */
export type OriginParams = {
  questionId: string;
  ownerId: string;
  guest: boolean;
  emailHash: string | null;
  deviceHash: string | null;
  networkHash: string | null;
  createdAt: Date;
};

/** The insert of a question's origin; a second one for the same question changes nothing. */
export function originInsert(db: QueryCreator<QuestionsDB>, origin: OriginParams) {
  return db
    .insertInto('question_origins')
    .values({
      question_id: origin.questionId,
      owner_id: origin.ownerId,
      guest: origin.guest,
      email_hash: origin.emailHash,
      device_hash: origin.deviceHash,
      network_hash: origin.networkHash,
      created_at: origin.createdAt,
    })
    .onConflict((oc) => oc.column('question_id').doNothing());
}
