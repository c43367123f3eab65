import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import {
  cancelJob,
  scheduleJob,
  type Clock,
  type EventMetadata,
  type EventStore,
  type JobHandler,
  type MailMessage,
  type Mailer,
  type RecordedEvent,
} from '@ques/kit';
import { questionDecider, type QuestionCommand } from './domain/decide.js';
import { isPublic, questionStreamId, type QuestionEvent, type QuestionState } from './domain/question.js';
import { answerPostedMail, newQuestionMail } from './notifications.js';

export const ANSWER_WINDOW_JOB = 'answer-window';
export const SEND_MAIL_JOB = 'send-mail';
/** The deadline of one question in `scheduled_jobs` (unique key: rescheduling replaces it). */
export const answerWindowKey = (questionId: string) => `answer-window:${questionId}`;

export interface QuestionCommandsDeps {
  store: EventStore;
  clock: Clock;
  log: Logger;
  /** The web app's origin, for links in e-mails. */
  publicOrigin: string;
}

/**
 * Runs question commands: load → decide → append, plus the side effects that must commit with the events — the
 * 5-day deadline (scheduled or cancelled) and the notification e-mails (queued as durable jobs, so a failed send is
 * retried and never loses the question). Projections run inside the append.
 *
 * Every command first locks the question's deadline row (if any). The scheduler holds that same row while it expires
 * a question, so a command and an expiry never deadlock (same lock order) and the command decides on fresh state.
 */
export class QuestionCommands {
  constructor(private readonly deps: QuestionCommandsDeps) {}

  async run(
    questionId: string,
    command: QuestionCommand,
    metadata: EventMetadata,
    within?: Kysely<any>,
  ): Promise<{ state: QuestionState; events: RecordedEvent[] }> {
    const work = async (trx: Kysely<any>) => {
      await sql`SELECT id FROM scheduled_jobs WHERE key = ${answerWindowKey(questionId)} FOR UPDATE`.execute(
        trx,
      );
      const streamId = questionStreamId(questionId);
      const { state, version } = await this.deps.store.load(streamId, questionDecider, trx);
      const events = questionDecider.decide(command, state);
      const next = events.reduce(questionDecider.evolve, state);
      const recorded = await this.deps.store.appendWithin(trx, {
        streamId,
        expectedVersion: version,
        events,
        metadata,
      });
      for (const event of recorded) await this.sideEffects(trx, event as unknown as QuestionEvent, next);
      return { state: next, events: recorded };
    };
    return within ? work(within) : this.deps.store.db.transaction().execute(work);
  }

  private async sideEffects(trx: Kysely<any>, event: QuestionEvent, state: QuestionState): Promise<void> {
    const { publicOrigin: origin } = this.deps;
    switch (event.type) {
      case 'QuestionAsked': {
        const d = event.data;
        if (d.answerDeadline) {
          await scheduleJob(trx, {
            kind: ANSWER_WINDOW_JOB,
            key: answerWindowKey(d.questionId),
            dueAt: new Date(d.answerDeadline),
            payload: { questionId: d.questionId },
          });
        }
        if (d.recipient.email) {
          await queueMail(
            trx,
            `mail:question-asked:${d.questionId}`,
            newQuestionMail({ origin, ...d }),
            this.deps.clock(),
          );
        }
        return;
      }
      case 'AnswerPosted': {
        await cancelJob(trx, answerWindowKey(event.data.questionId));
        if (state.status === 'none' || !state.asker) return;
        // A signed-in asker gets the mail at their current address; a guest at the one they typed.
        const current: { email?: string } | undefined = state.asker.userId
          ? await trx
              .selectFrom('recipients')
              .select('email')
              .where('user_id', '=', state.asker.userId)
              .where('deleted', '=', false)
              .executeTakeFirst()
          : undefined;
        const to = current?.email || state.asker.email;
        if (!to) return;
        const mail = answerPostedMail({
          origin,
          questionId: state.questionId,
          recipient: state.recipient,
          askerName: state.asker.name,
          to,
          question: state.question,
          answer: event.data.answer,
          isPublic: isPublic(state),
        });
        await queueMail(trx, `mail:answer-posted:${state.questionId}`, mail, this.deps.clock());
        return;
      }
      case 'QuestionWithdrawn':
      case 'QuestionDeletedByReceiver':
        await cancelJob(trx, answerWindowKey(event.data.questionId));
        return;
      case 'TippedQuestionSubmitted':
      case 'QuestionCurated':
      case 'AnswerEdited': // an edit never notifies (spec §7 skipNotify)
      case 'QuestionVisibilityChanged':
      case 'AnswerWindowExpired':
      case 'TipCaptureConfirmed':
      case 'TipReleaseConfirmed':
        return;
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  }

  /** Scheduled-job handlers: the deadline and the mail queue. */
  jobs(mailer: Mailer | null): Record<string, JobHandler> {
    return {
      [ANSWER_WINDOW_JOB]: async (trx, job) => {
        const { questionId } = job.payload as { questionId: string };
        const { events } = await this.run(
          questionId,
          { type: 'ExpireAnswerWindow', data: { now: this.deps.clock() } },
          { correlationId: job.key, causationId: null, actor: null },
          trx,
        );
        this.deps.log.info({ questionId, expired: events.length > 0 }, 'answer window reached');
      },
      [SEND_MAIL_JOB]: async (_trx, job) => {
        if (!mailer) throw new Error('this questions instance has no mailer');
        await mailer.send(job.payload as MailMessage);
      },
    };
  }
}

async function queueMail(trx: Kysely<any>, key: string, mail: MailMessage, now: Date): Promise<void> {
  await scheduleJob(trx, { kind: SEND_MAIL_JOB, key, dueAt: now, payload: mail });
}
