import { randomUUID } from 'node:crypto';
import { type Kysely } from 'kysely';
import { ASKING_MESSAGES, isUuid, QUESTION_NOT_FOUND, type AskerBlock } from '@ques/contracts';
import { forbidden, notFound, unprocessable, type AccessClaims, type Clock } from '@ques/kit';
import { type AskerBlockRow, type QuestionsDB } from '../db/schema.js';
import type { RecipientsReadModel } from '../recipients/recipients.js';
import { ownerHash } from './owner-hash.js';
import { normaliseEmail } from './domain/guest-buckets.js';

/** An owner's blocks (issue 16): made from a question they received, listed, lifted; screening reads them in asking.ts. */
export class AskerBlocks {
  constructor(
    private readonly deps: { db: Kysely<QuestionsDB>; recipients: RecipientsReadModel; clock: Clock },
  ) {}

  /** `POST /api/questions/:id/block`: the recipient blocks whoever asked it. */
  async block(owner: AccessClaims, rawId: string): Promise<AskerBlock> {
    const { db } = this.deps;
    if (!isUuid(rawId)) throw notFound(QUESTION_NOT_FOUND);
    const questionId = rawId.toLowerCase();
    const q = await db.selectFrom('questions').selectAll().where('id', '=', questionId).executeTakeFirst();
    if (!q || q.lifecycle === 'awaiting_payment') throw notFound(QUESTION_NOT_FOUND);
    if (q.to_user_id !== owner.sub) {
      // Its asker may see it, and learns only that blocking is not theirs to do; anyone else: 404.
      if (q.asker_user_id === owner.sub) throw forbidden(ASKING_MESSAGES.notYours);
      throw notFound(QUESTION_NOT_FOUND);
    }
    if (q.is_curated || q.asker_user_id === owner.sub) throw unprocessable(ASKING_MESSAGES.cannotBlockSelf);
    const origin = await db
      .selectFrom('question_origins')
      .select(['device_hash'])
      .where('question_id', '=', questionId)
      .where('owner_id', '=', owner.sub)
      .executeTakeFirst();
    // A guest's typed address; a signed-in asker's account address only when verified (the account blocks them anyway).
    const email = q.asker_user_id
      ? await this.deps.recipients.verifiedEmail(q.asker_user_id)
      : q.asked_email
        ? normaliseEmail(q.asked_email)
        : null;
    const values = {
      id: randomUUID(),
      owner_id: owner.sub,
      label: q.asked_name || q.from_username,
      account_id: q.asker_user_id,
      email_hash: email ? ownerHash(owner.sub, 'email', email) : null,
      device_hash: origin?.device_hash ?? null,
      source_question_id: questionId,
      created_at: this.deps.clock(),
    };
    await db
      .insertInto('asker_blocks')
      .values(values)
      .onConflict((oc) => oc.columns(['owner_id', 'source_question_id']).doNothing())
      .execute();
    const row = await db
      .selectFrom('asker_blocks')
      .selectAll()
      .where('owner_id', '=', owner.sub)
      .where('source_question_id', '=', questionId)
      .executeTakeFirstOrThrow();
    return blockView(row);
  }

  /** `GET /api/asking/blocks`: the caller's own blocks only. */
  async list(owner: AccessClaims): Promise<AskerBlock[]> {
    const rows = await this.deps.db
      .selectFrom('asker_blocks')
      .selectAll()
      .where('owner_id', '=', owner.sub)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(blockView);
  }

  /** `DELETE /api/asking/blocks/:id`: another owner's block is not found. */
  async lift(owner: AccessClaims, rawId: string): Promise<void> {
    if (!isUuid(rawId)) throw notFound(ASKING_MESSAGES.blockNotFound);
    const result = await this.deps.db
      .deleteFrom('asker_blocks')
      .where('id', '=', rawId.toLowerCase())
      .where('owner_id', '=', owner.sub)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(ASKING_MESSAGES.blockNotFound);
  }
}

function blockView(row: AskerBlockRow): AskerBlock {
  return {
    id: row.id,
    label: row.label,
    byAccount: row.account_id !== null,
    byEmail: row.email_hash !== null,
    byDevice: row.device_hash !== null,
    createdAt: row.created_at.toISOString(),
  };
}
