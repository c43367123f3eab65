import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { cancelJob, ownerBrand, scheduleJob, type Clock, type JobHandler, type MailMessage } from '@ques/kit';
import type { QuestionsDB } from '../db/schema.js';
import { nudgeMail, nudgeTimes, NUDGE_MARKS, type HeldTip } from './domain/nudges.js';

/*
 * Nudges (issue 16) on the durable scheduler: three jobs per tipped question (24 h, 72 h, 4 days after it was asked),
 * scheduled with `QuestionAsked` and cancelled with the answer, a withdrawal or a deletion — in the command's
 * transaction. A due job is claimed with SKIP LOCKED (one instance runs it); it also claims every other nudge of the
 * same owner that is due (SKIP LOCKED too), so several at once become one digest. The mail itself is a `send-mail`
 * job committed with it (retried on an SMTP failure, sent once).
 */

export const NUDGE_JOB = 'question-nudge';
export const nudgeKey = (questionId: string, mark: string) => `nudge:${questionId}:${mark}`;

interface NudgePayload {
  questionId: string;
  ownerId: string;
  mark: string;
}

/** In the command's transaction, when a tipped question is asked. */
export async function scheduleNudges(
  trx: Kysely<QuestionsDB>,
  input: { questionId: string; ownerId: string; answerDeadline: string },
): Promise<void> {
  for (const { mark, dueAt } of nudgeTimes(new Date(input.answerDeadline))) {
    const payload: NudgePayload = { questionId: input.questionId, ownerId: input.ownerId, mark };
    await scheduleJob(trx, { kind: NUDGE_JOB, key: nudgeKey(input.questionId, mark), dueAt, payload });
  }
}

/** In the command's transaction, when the question is answered, withdrawn or deleted. */
export async function cancelNudges(trx: Kysely<QuestionsDB>, questionId: string): Promise<void> {
  for (const { mark } of NUDGE_MARKS) await cancelJob(trx, nudgeKey(questionId, mark));
}

export function nudgeJobs(deps: {
  clock: Clock;
  publicOrigin: string;
  log: Logger;
  /** Queues a mail in the job's transaction (the questions' `send-mail` job). */
  queueMail: (trx: Kysely<QuestionsDB>, key: string, mail: MailMessage, now: Date) => Promise<void>;
}): Record<string, JobHandler<QuestionsDB>> {
  return {
    [NUDGE_JOB]: async (trx, job) => {
      const payload = job.payload as NudgePayload;
      const now = deps.clock();
      // Every other nudge of this owner that is due now: claimed here (SKIP LOCKED: another instance's are its own).
      const others = await sql<{ id: number; payload: NudgePayload }>`
        SELECT id, payload FROM scheduled_jobs
        WHERE kind = ${NUDGE_JOB} AND status = 'pending' AND due_at <= ${now} AND id <> ${job.id}
          AND payload->>'ownerId' = ${payload.ownerId}
        FOR UPDATE SKIP LOCKED`.execute(trx);
      if (others.rows.length > 0) {
        await sql`UPDATE scheduled_jobs SET status = 'done', done_at = ${now}
          WHERE id IN (${sql.join(others.rows.map((r) => r.id))})`.execute(trx);
      }
      const questionIds = [...new Set([payload.questionId, ...others.rows.map((r) => r.payload.questionId)])];

      const settings = await trx.selectFrom('asking_settings').select('nudges').where('owner_id', '=', payload.ownerId).executeTakeFirst();
      if (settings && !settings.nudges) return;
      const owner = await trx
        .selectFrom('recipients')
        .select(['name', 'username', 'email', 'brand_color_main', 'brand_color_light'])
        .where('user_id', '=', payload.ownerId)
        .where('deleted', '=', false)
        // Notification mail goes only to an address its owner proved (ADR 0021).
        .where('email_verified', '=', true)
        .executeTakeFirst();
      if (!owner?.email) return;
      // Only tips still held on questions still waiting (an answer cancels the jobs; this is the belt to those braces).
      const rows = await trx
        .selectFrom('questions')
        .select(['id', 'question', 'asked_name', 'tip_amount', 'currency', 'answer_deadline'])
        .where('id', 'in', questionIds)
        .where('to_user_id', '=', payload.ownerId)
        .where('lifecycle', '=', 'pending')
        .where('deleted_by_receiver', '=', false)
        .where('answer_window_expired', '=', false)
        .where('tip_status', '=', 'held')
        .execute();
      const tips: HeldTip[] = rows
        .filter((r) => r.answer_deadline && r.answer_deadline.getTime() > now.getTime())
        .map((r) => ({
          questionId: r.id,
          question: r.question,
          askerName: r.asked_name,
          amountCents: r.tip_amount,
          currency: r.currency ?? 'usd',
          deadline: r.answer_deadline!,
        }));
      if (tips.length === 0) return;
      const mail = nudgeMail({
        ownerName: owner.name || owner.username,
        to: owner.email,
        tips,
        now,
        answerUrl: (questionId) => `${deps.publicOrigin}/admin?answer=${questionId}`,
        settingsUrl: `${deps.publicOrigin}/admin/account-settings`,
        id: `${payload.ownerId}.${job.id}`,
        brand: ownerBrand({ name: owner.name || owner.username, brandColorMain: owner.brand_color_main, brandColorLight: owner.brand_color_light }),
      });
      await deps.queueMail(trx, `mail:nudge:${job.key}`, mail, now);
      deps.log.info({ ownerId: payload.ownerId, questions: tips.length }, tips.length > 1 ? 'nudge digest queued' : 'nudge queued');
    },
  };
}
