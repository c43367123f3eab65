import type { Kysely } from 'kysely';
import {
  DEFAULT_AVATAR_URL,
  DEFAULT_BRAND_COLOR_LIGHT,
  DEFAULT_BRAND_COLOR_MAIN,
  isStatusToken,
  isUuid,
  QUESTION_NOT_FOUND,
  questionPath,
  STATUS_MESSAGES,
  STATUS_PAGE_PATH,
  type QuestionStatusPage,
  type StatusLinkResponse,
} from '@ques/contracts';
import {
  notFound,
  requireAccess,
  type AccessClaims,
  type Clock,
  type EventMetadata,
  type EventStore,
} from '@ques/kit';
import type { QuestionRow, QuestionsDB, RecipientRow } from '../db/schema.js';
import { brandOf, queueMail, type QuestionCommands } from '../questions/commands.js';
import { isAsker, isPublic, viewerOf } from '../questions/domain/access.js';
import { questionStreamId, type QuestionEvent } from '../questions/domain/question.js';
import { answerPostedMail } from '../questions/notifications.js';
import type { Parties } from '../questions/parties.js';
import type { QuestionsReadModel } from '../questions/read-models/questions.js';
import { partiesOf } from '../questions/views.js';
import type { RecipientsReadModel } from '../recipients/recipients.js';
import { createStatusLink, hashStatusToken, lockGuestLink, statusPageUrl } from './links.js';
import { statusTimeline, type TimelineStep } from './timeline.js';

export interface StatusPagesDeps {
  db: Kysely<QuestionsDB>;
  /** The question's own events: the timeline's times (issue 28). */
  store: EventStore<QuestionsDB>;
  recipients: RecipientsReadModel;
  commands: QuestionCommands;
  questions: QuestionsReadModel;
  parties: Parties;
  clock: Clock;
  publicOrigin: string;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const gone = () => notFound(STATUS_MESSAGES.notFound);

/** What the page shows beside the row: the owner's look, the timeline, whether a guest's address is confirmed. */
export interface StatusPageExtras {
  emailConfirmed: boolean;
  owner: Pick<RecipientRow, 'avatar_url' | 'brand_color_main' | 'brand_color_light'> | undefined;
  timeline: TimelineStep[];
}

/** The page's view of a row (only ever this one question). */
export function toStatusPage(row: QuestionRow, extras: StatusPageExtras): QuestionStatusPage {
  const released = row.tip_status === 'released';
  const charged = row.tip_status === 'captured' || row.tip_status === 'capturing';
  const status: QuestionStatusPage['status'] =
    row.lifecycle === 'awaiting_payment'
      ? 'Confirming'
      : row.lifecycle === 'answered'
        ? 'Answered'
        : row.lifecycle === 'withdrawn'
          ? 'Withdrawn'
          : row.answer_window_expired || row.deleted_by_receiver
            ? 'Released'
            : 'Pending';
  const shown = isPublic(partiesOf(row));
  const capturedAt = extras.timeline.find((s) => s.step === 'charged')?.at ?? null;
  return {
    questionId: row.id,
    question: row.question,
    detail: row.detail,
    publicQuestion: row.public_question,
    publicDetail: row.public_question !== null ? (row.public_detail ?? '') : null,
    toName: row.recipient_name,
    toUsername: row.to_username,
    toAvatarUrl: extras.owner?.avatar_url || DEFAULT_AVATAR_URL,
    brandColorMain: extras.owner?.brand_color_main || DEFAULT_BRAND_COLOR_MAIN,
    brandColorLight: extras.owner?.brand_color_light || DEFAULT_BRAND_COLOR_LIGHT,
    status,
    askedAt: iso(row.created_at)!,
    answer: row.lifecycle === 'answered' ? row.answer : null,
    answeredAt: iso(row.answered_at),
    isPublic: shown,
    // The slug follows the public wording (issue 14): the original words stay out of URLs.
    answerPath: shown ? questionPath(row.to_username, row.id, row.public_question ?? row.question) : null,
    timeline: extras.timeline,
    isPrivate: row.asker_private,
    tip:
      row.tip_amount > 0
        ? {
            amountCents: row.tip_amount,
            currency: row.currency ?? 'usd',
            state: charged ? 'charged' : released ? 'released' : 'held',
            releaseAt: iso(row.answer_deadline),
            chargedAt: charged ? (capturedAt ?? iso(row.answered_at)) : null,
          }
        : null,
    emailConfirmed: extras.emailConfirmed,
  };
}

/**
 * The private status page (issue 14): whoever holds a link sees that one question, confirms a guest's address by
 * opening it, and may withdraw it. A token that is malformed or unknown is the same 404.
 */
export class StatusPages {
  constructor(private readonly deps: StatusPagesDeps) {}

  async view(token: string): Promise<QuestionStatusPage> {
    const { row } = await this.resolve(token);
    const [emailConfirmed, owner, events] = await Promise.all([
      this.confirmed(row.id),
      this.deps.recipients.byId(row.to_user_id),
      this.deps.store.readStream(questionStreamId(row.id)),
    ]);
    return toStatusPage(row, { emailConfirmed, owner, timeline: statusTimeline(events as unknown as QuestionEvent[]) });
  }

  /** The page loaded: confirms a guest link's address, and mails an answer that waited for it. */
  async confirm(token: string): Promise<QuestionStatusPage> {
    const { link } = await this.resolve(token);
    const { db, clock, publicOrigin } = this.deps;
    // Only the mailed link proves the guest's address: the one their browser made at asking (issue 28) does not.
    if (!link.guest) return this.view(token);
    await db.transaction().execute(async (trx) => {
      const guest = await lockGuestLink(trx, link.question_id);
      if (!guest) return;
      if (!guest.confirmed_at) {
        await trx
          .updateTable('status_links')
          .set({ confirmed_at: clock() })
          .where('token_hash', '=', guest.token_hash)
          .execute();
      }
      const row = await this.deps.questions.byId(link.question_id, trx);
      if (
        !row ||
        row.lifecycle !== 'answered' ||
        guest.answer_mailed ||
        !row.asked_email ||
        row.asker_user_id
      )
        return;
      await trx
        .updateTable('status_links')
        .set({ answer_mailed: true })
        .where('token_hash', '=', guest.token_hash)
        .execute();
      const mail = answerPostedMail({
        origin: publicOrigin,
        questionId: row.id,
        recipient: {
          userId: row.to_user_id,
          username: row.to_username,
          name: row.recipient_name,
          email: row.to_user_email,
        },
        askerName: row.asked_name,
        to: row.asked_email,
        question: row.question,
        answer: row.answer ?? '',
        isPublic: isPublic(partiesOf(row)),
        statusUrl: statusPageUrl(publicOrigin, token),
        brand: await brandOf(trx, row.to_user_id, row.recipient_name),
      });
      await queueMail(trx, `mail:answer-posted:${row.id}`, mail, clock());
    });
    return this.view(token);
  }

  /** The Withdraw button: the asker's withdrawal (releases a held tip); twice, or after an answer, is the 409. */
  async withdraw(token: string, metadata: EventMetadata): Promise<QuestionStatusPage> {
    const { link } = await this.resolve(token);
    await this.deps.commands.handle(
      link.question_id,
      { type: 'WithdrawQuestion', data: { actor: null, viaStatusLink: true, now: this.deps.clock() } },
      metadata,
    );
    return this.view(token);
  }

  /** Questions Asked → "Status page": a new link for the signed-in asker (never for anyone else). */
  async linkForAsker(claims: AccessClaims, rawId: string): Promise<StatusLinkResponse> {
    if (!isUuid(rawId)) throw notFound(QUESTION_NOT_FOUND);
    const row = await this.deps.questions.byId(rawId.toLowerCase());
    if (!row) throw notFound(QUESTION_NOT_FOUND);
    const actor = await this.deps.parties.actor(claims);
    const parties = partiesOf(row);
    requireAccess(
      isAsker(parties, actor) && viewerOf(parties, actor) !== null,
      viewerOf(parties, actor) !== null,
      {
        forbidden: STATUS_MESSAGES.onlyAsker,
        notFound: QUESTION_NOT_FOUND,
      },
    );
    const token = await createStatusLink(this.deps.db, row.id, { guest: false, now: this.deps.clock() });
    return { token, url: `${STATUS_PAGE_PATH}${token}` };
  }

  private async resolve(token: string) {
    if (!isStatusToken(token)) throw gone();
    const link = await this.deps.db
      .selectFrom('status_links')
      .selectAll()
      .where('token_hash', '=', hashStatusToken(token))
      .executeTakeFirst();
    if (!link) throw gone();
    const row = await this.deps.questions.byId(link.question_id);
    // Its checkout ended unpaid: nothing to show. Still at checkout, it is the browser's link, back from paying
    // before the provider's authorization is recorded (issue 28): the page says it is confirming.
    if (!row || row.lifecycle === 'checkout_expired') throw gone();
    return { link, row };
  }

  /** A guest's address is confirmed once any of their links was opened; a signed-in asker's account is. */
  private async confirmed(questionId: string): Promise<boolean> {
    const guest = await this.deps.db
      .selectFrom('status_links')
      .select('confirmed_at')
      .where('question_id', '=', questionId)
      .where('guest', '=', true)
      .executeTakeFirst();
    return !guest || !!guest.confirmed_at;
  }
}
