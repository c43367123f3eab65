import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import {
  cancelJob,
  CommandHandler,
  mailBucket,
  takeMailQuota,
  scheduleJob,
  scheduleJobs,
  type JobToSchedule,
  type Clock,
  type EventStore,
  type JobHandler,
  ownerBrand,
  type Brand,
  type MailMessage,
  type Mailer,
  type RecordedEvent,
} from '@ques/kit';
import { GUEST_RECEIPTS_PER_ADDRESS_PER_DAY } from '@ques/contracts';
import { cancelNudges, scheduleNudges } from '../asking/nudges.js';
import type { QuestionsDB, RecipientRow } from '../db/schema.js';
import { questionDecider, type QuestionCommand } from './domain/decide.js';
import { isPublic } from './domain/access.js';
import { questionStreamId, type QuestionEvent, type QuestionState } from './domain/question.js';
import { createStatusLink, lockGuestLink, statusLinkInsert, statusPageUrl } from '../status/links.js';
import { takeSeenPerson } from '../recipients/recipients.js';
import { answerPostedMail, newQuestionMail, receiptMail } from './notifications.js';

export const ANSWER_WINDOW_JOB = 'answer-window';
export const SEND_MAIL_JOB = 'send-mail';
/** The mail caps' kind of a guest's receipt (ADR 0060). */
export const GUEST_RECEIPT_MAIL = 'guest-receipt';
/** The deadline of one question in `scheduled_jobs` (unique key: rescheduling replaces it). */
export const answerWindowKey = (questionId: string) => `answer-window:${questionId}`;

/** Commands on a question (`question-<id>` streams), through the kit's one command handler. */
export type QuestionCommands = CommandHandler<QuestionCommand, QuestionEvent, QuestionState, QuestionsDB>;

/**
 * Question commands: load → decide → append, plus the side effects that must commit with the events — the 5-day
 * deadline (scheduled or cancelled) and the notification e-mails (queued as durable jobs, so a failed send is retried
 * and never loses the question). Projections run inside the append.
 *
 * Every command first locks the question's deadline row (if any). The scheduler holds that same row while it expires
 * a question, so a command and an expiry never deadlock (same lock order) and the command decides on fresh state.
 */
export function questionCommands(store: EventStore<QuestionsDB>, deps: CommandDeps): QuestionCommands {
  return new CommandHandler(store, {
    decider: questionDecider,
    streamId: questionStreamId,
    lock: async (trx, questionId) => {
      await sql`SELECT id FROM scheduled_jobs WHERE key = ${answerWindowKey(questionId)} FOR UPDATE`.execute(trx);
    },
    sideEffects: async (trx, recorded, state) => {
      for (const event of recorded) await sideEffects(trx, event, state, deps);
    },
  });
}

interface CommandDeps {
  clock: Clock;
  publicOrigin: string;
  /** Says when a guest's receipt was not sent (its address had its receipts for the day). */
  log?: Logger;
}

async function sideEffects(trx: Kysely<QuestionsDB>, recorded: RecordedEvent<QuestionEvent>, state: QuestionState, deps: CommandDeps): Promise<void> {
  const { publicOrigin: origin } = deps;
  const event = { type: recorded.type, data: recorded.data } as QuestionEvent;
  switch (event.type) {
    case 'QuestionAsked': {
      const d = event.data;
      // The deadline and the mails go in one statement with the guest's status link (ADR 0049).
      const jobs: JobToSchedule[] = [];
      if (d.answerDeadline) {
        jobs.push({
          kind: ANSWER_WINDOW_JOB,
          key: answerWindowKey(d.questionId),
          dueAt: new Date(d.answerDeadline),
          payload: { questionId: d.questionId },
        });
        // Reminders to the owner while the tip is held (issue 16).
        await scheduleNudges(trx, { questionId: d.questionId, ownerId: d.recipient.userId, answerDeadline: d.answerDeadline });
      }
      // Only to an address its owner proved (ADR 0021): an unverified account gets no mail at all.
      const owner = await personOf(trx, d.recipient.userId);
      const brand = ownerBrand({ name: d.recipient.name, brandColorMain: owner?.brand_color_main, brandColorLight: owner?.brand_color_light });
      const to = provenEmail(owner);
      if (to) {
        const mail = newQuestionMail({ origin, ...d, recipient: { ...d.recipient, email: to }, brand });
        jobs.push(mailJob(`mail:question-asked:${d.questionId}`, mail, deps.clock()));
      }
      // The asker's receipt with the link to the question's private status page (issues 14, 28): a guest at the
      // address they typed (opening the link confirms it), a signed-in asker at their proven address.
      const guest = !d.asker.userId;
      const askerTo = guest ? d.asker.email : await verifiedEmailOf(trx, d.asker.userId!);
      // A guest's link is made even when its mail is skipped (ADR 0060): the answer then waits for a confirmation of
      // the address that never comes, never mailed to it unproven (as a question without a guest link would be).
      const link = askerTo ? statusLinkInsert(trx, d.questionId, { guest, now: deps.clock() }) : null;
      if (link && askerTo && (!guest || (await receiptAllowed(trx, askerTo, d.questionId, deps)))) {
        const mail = receiptMail({
          questionId: d.questionId,
          to: askerTo,
          recipient: d.recipient,
          brand,
          statusUrl: statusPageUrl(origin, link.token),
          origin,
          question: d.question,
          tip: d.tip,
          answerDeadline: d.answerDeadline,
          guest,
        });
        jobs.push(mailJob(`mail:status-link:${d.questionId}`, mail, deps.clock()));
      }
      await scheduleJobs(trx, jobs, link?.insert);
      return;
    }
    case 'AnswerPosted': {
      await cancelJob(trx, answerWindowKey(event.data.questionId));
      await cancelNudges(trx, event.data.questionId);
      if (state.status === 'none' || !state.asker) return;
      // A signed-in asker gets the mail at their current address if they verified it (ADR 0021), else none; a guest
      // at the one they typed.
      const to = state.asker.userId ? await verifiedEmailOf(trx, state.asker.userId) : state.asker.email;
      if (!to) return;
      let statusUrl: string | null = null;
      if (!state.asker.userId) {
        // Issue 14: the answer goes to a guest's typed address only once they opened the status link (confirmed);
        // otherwise the confirmation sends it. Questions asked before status links existed are mailed as before.
        const link = await lockGuestLink(trx, state.questionId);
        if (link && !link.confirmed_at) return;
        if (link) {
          if (link.answer_mailed) return;
          await trx.updateTable('status_links').set({ answer_mailed: true }).where('token_hash', '=', link.token_hash).execute();
          statusUrl = statusPageUrl(origin, await createStatusLink(trx, state.questionId, { guest: false, now: deps.clock() }));
        }
      }
      const mail = answerPostedMail({
        origin,
        questionId: state.questionId,
        recipient: state.recipient,
        askerName: state.asker.name,
        to,
        // The link's slug follows the public wording (issue 14): the original words stay out of URLs.
        question: event.data.redaction?.question ?? state.question,
        answer: event.data.answer,
        isPublic: isPublic(state),
        statusUrl,
        brand: await brandOf(trx, state.recipient.userId, state.recipient.name),
      });
      await queueMail(trx, `mail:answer-posted:${state.questionId}`, mail, deps.clock());
      return;
    }
    case 'QuestionWithdrawn':
    case 'QuestionDeletedByReceiver':
      await cancelJob(trx, answerWindowKey(event.data.questionId));
      await cancelNudges(trx, event.data.questionId);
      return;
    case 'TippedQuestionSubmitted':
    case 'QuestionCurated':
    case 'AnswerEdited': // an edit never notifies (spec §7 skipNotify)
    case 'QuestionVisibilityChanged':
    case 'AnswerHiddenByOperator':
    case 'AnswerWindowExpired':
    case 'TipCaptureConfirmed':
    case 'TipReleaseConfirmed':
    case 'TippedCheckoutExpired':
      return;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** Scheduled-job handlers: the deadline and the mail queue. */
export function questionJobs(
  commands: QuestionCommands,
  deps: { mailer: Mailer | null; clock: Clock; log: Logger },
): Record<string, JobHandler<QuestionsDB>> {
  return {
    [ANSWER_WINDOW_JOB]: async (trx, job) => {
      const { questionId } = job.payload as { questionId: string };
      const { events } = await commands.handle(
        questionId,
        { type: 'ExpireAnswerWindow', data: { now: deps.clock() } },
        { correlationId: job.key, causationId: null, actor: null },
        { transaction: trx },
      );
      deps.log.info({ questionId, expired: events.length > 0 }, 'answer window reached');
    },
    [SEND_MAIL_JOB]: async (_trx, job) => {
      if (!deps.mailer) throw new Error('this questions instance has no mailer');
      await deps.mailer.send(job.payload as MailMessage);
    },
  };
}

/**
 * A guest typed the address, perhaps someone else's: receipts to it are capped per UTC day across every owner (issue
 * 33, ADR 0060). Beyond the cap the question still stands — refusing it would punish the asker for a third party's
 * flood — and only the mail (and the link it would carry) is skipped; the counter keeps how many were.
 */
async function receiptAllowed(trx: Kysely<QuestionsDB>, to: string, questionId: string, deps: CommandDeps): Promise<boolean> {
  const cap = { kind: GUEST_RECEIPT_MAIL, bucket: mailBucket.address(to), limit: GUEST_RECEIPTS_PER_ADDRESS_PER_DAY };
  if (!(await takeMailQuota(trx, [cap], deps.clock()))) return true;
  deps.log?.info({ questionId }, "guest receipt not sent: its address had today's receipts");
  return false;
}

type Person = Pick<RecipientRow, 'deleted' | 'email' | 'email_verified' | 'brand_color_main' | 'brand_color_light'>;

/** An account's row as far as mail needs it (its address and colours); null: no such account here. */
async function personOf(trx: Kysely<QuestionsDB>, userId: string): Promise<Person | null> {
  // A new question's people were read by the deleted-users projection in this same transaction (ADR 0042).
  const seen = takeSeenPerson(trx, userId);
  if (seen !== undefined) return seen;
  const row = await trx
    .selectFrom('recipients')
    .select(['deleted', 'email', 'email_verified', 'brand_color_main', 'brand_color_light'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

const provenEmail = (person: Person | null) => (person && !person.deleted && person.email_verified && person.email ? person.email : null);

/** An account's current address, only when its owner proved it (identity's `emailVerified`); null otherwise. */
export async function verifiedEmailOf(trx: Kysely<QuestionsDB>, userId: string): Promise<string | null> {
  return provenEmail(await personOf(trx, userId));
}

/** The colours of the owner a mail is about (Ques's own when unknown). */
export async function brandOf(trx: Kysely<QuestionsDB>, userId: string, name: string): Promise<Brand> {
  const row = await trx.selectFrom('recipients').select(['brand_color_main', 'brand_color_light']).where('user_id', '=', userId).executeTakeFirst();
  return ownerBrand({ name, brandColorMain: row?.brand_color_main, brandColorLight: row?.brand_color_light });
}

/** A durable `send-mail` job, committed with the caller's transaction. */
export async function queueMail(trx: Kysely<QuestionsDB>, key: string, mail: MailMessage, now: Date): Promise<void> {
  await scheduleJob(trx, mailJob(key, mail, now));
}

/** The `send-mail` job of `mail` (queued with `scheduleJob`/`scheduleJobs`). */
export const mailJob = (key: string, mail: MailMessage, now: Date): JobToSchedule => ({ kind: SEND_MAIL_JOB, key, dueAt: now, payload: mail });
