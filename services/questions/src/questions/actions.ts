import {
  ANSWER_MESSAGES,
  ASK_MESSAGES,
  checkAnswerBody,
  checkAskDraft,
  checkCurateDraft,
  checkPatchBody,
  checkTipCents,
  checkTipDollars,
  isUuid,
  QUESTION_MESSAGES,
  QUESTION_NOT_FOUND,
  type AnswerQuestionBody,
  type AskQuestionBody,
  type Checked,
  type CurateDraft,
  type ListQuestionsQuery,
  type PatchQuestionBody,
  type PublicQuestion,
  type Question,
  type SimilarAnswer,
  type SubmitTippedQuestionRequest,
} from '@ques/contracts';
import {
  AppError,
  badRequest,
  forbidden,
  IDEMPOTENCY_MESSAGES,
  notFound,
  unprocessable,
  type AccessClaims,
  type Clock,
  type EventMetadata,
} from '@ques/kit';
import type { Kysely } from 'kysely';
import type { Asking } from '../asking/asking.js';
import type { QuestionRow, QuestionsDB } from '../db/schema.js';
import type { RecipientsReadModel } from '../recipients/recipients.js';
import { browserLinkInsert } from '../status/links.js';
import type { QuestionCommands } from './commands.js';
import type { QuestionCommand } from './domain/decide.js';
import type { Recipient } from './domain/question.js';
import { Parties } from './parties.js';
import type { Page, QuestionsReadModel } from './read-models/questions.js';
import { ownView, toPublicQuestion, toQuestion, viewFor } from './views.js';

export interface QuestionActionsDeps {
  commands: QuestionCommands;
  questions: QuestionsReadModel;
  recipients: RecipientsReadModel;
  clock: Clock;
  /** Owner control (issue 16): every free question is screened before it is stored. */
  asking: Asking;
}

/** The spec's validation answers: 400 with the rule's message. */
function valid<T>(checked: Checked<T>): T {
  if (!checked.ok) throw badRequest(checked.message);
  return checked.value;
}

/** A route's `:id`: a malformed one is a question that does not exist (404), or the answer modal's 400. */
function questionIdOf(raw: string, malformed: 'notFound' | 'badRequest' = 'notFound'): string {
  if (isUuid(raw)) return raw.toLowerCase();
  throw malformed === 'notFound'
    ? notFound(QUESTION_NOT_FOUND)
    : badRequest(ANSWER_MESSAGES.invalidQuestionId);
}

const isConflict = (err: unknown) => err instanceof AppError && err.status === 409;

export interface ListedQuestions {
  items: (Question | PublicQuestion)[];
  nextCursor: string | null;
}

/**
 * What the questions routes do, without HTTP: resolve the people (`Parties`), check the spec's rules, issue the
 * command, and read back what the caller may see. Routes parse, authenticate and pick the status; the aggregate
 * decides.
 */
export class QuestionActions {
  private readonly parties: Parties;

  constructor(private readonly deps: QuestionActionsDeps) {
    this.parties = new Parties(deps.recipients);
  }

  /** A free question from a guest (`claims` null) or a signed-in asker, created as `questionId`. */
  async ask(
    claims: AccessClaims | null,
    body: AskQuestionBody,
    questionId: string,
    metadata: EventMetadata,
    /** The browser's device token (`X-Ques-Device`), if it sent one. */
    device?: string | null,
    /** The client's address (`request.ip`), for the guest limit's network bucket. */
    network?: string | null,
  ): Promise<Question> {
    const draft = valid(checkAskDraft(body, { signedIn: !!claims }));
    const screened = {
      toUserId: draft.toUserId,
      question: draft.question,
      detail: draft.detail,
      askerUserId: claims?.sub ?? null,
      guestEmail: draft.guest?.email ?? null,
      device,
      network,
    };
    // One read of the owner (ADR 0042): the recipient, a signed-in asker's account and every screening fact.
    const read = await this.deps.asking.ownerRead(screened);
    const recipient = Parties.recipientOf(read?.owner);
    const tip = valid(checkTipDollars(body.tip));
    if (tip > 0) throw unprocessable(ASK_MESSAGES.tipNeedsCheckout);
    // Pause, cap, blocks, word filters, guest limit: refused before anything is stored.
    this.deps.asking.refuseUnless(this.deps.asking.screenRead(screened, read!));
    const asker = claims ? Parties.signedInAskerOf(claims, read!.asker) : this.parties.guest(draft.guest!);
    let made: QuestionRow | undefined;
    const row = await this.createOnce(
      {
        type: 'AskQuestion',
        data: {
          questionId,
          recipient,
          asker,
          question: draft.question,
          detail: draft.detail,
          isPrivate: draft.isPrivate,
          now: this.deps.clock(),
        },
      },
      metadata,
      (existing) =>
        existing.to_user_id === recipient.userId &&
        existing.question === draft.question &&
        existing.detail === draft.detail &&
        existing.asker_user_id === asker.userId,
      // The origin commits with the question, and the response's row is read in the same statement (ADR 0042).
      async (trx) => {
        if (draft.statusToken) await browserLinkInsert(trx, questionId, draft.statusToken, this.deps.clock()).execute();
        made = await this.deps.asking.recordOriginAndRead(trx, questionId, screened, read!);
      },
      () => made,
    );
    return toQuestion(row, row.to_user_id === claims?.sub ? 'recipient' : 'asker');
  }

  /** The owner's curated Q&A (`isCurated: true`), created as `questionId`. */
  async curate(
    claims: AccessClaims,
    body: AskQuestionBody,
    questionId: string,
    metadata: EventMetadata,
  ): Promise<Question> {
    const draft = valid(checkCurateDraft(body));
    const toUsername = body.toUsername?.trim().toLowerCase();
    if (toUsername && toUsername !== claims.username) throw forbidden(QUESTION_MESSAGES.onlyOwnCuration);
    const owner = await this.parties.curator(claims);
    return this.curateFor(owner, draft, questionId, metadata);
  }

  /**
   * Creates a curated Q&A of `owner` — the one way to (the owner's curate form, and an operator curating an archive
   * profile, issue 18). `alongside` commits with it (the operator's audit record); a retry gets the row it made.
   */
  async curateFor(
    owner: Recipient,
    draft: CurateDraft,
    questionId: string,
    metadata: EventMetadata,
    alongside?: (trx: Kysely<QuestionsDB>) => Promise<void>,
  ): Promise<Question> {
    const row = await this.createOnce(
      {
        type: 'CurateQuestion',
        data: {
          questionId,
          owner,
          ...draft,
          replierName: draft.replierName ?? owner.name,
          now: this.deps.clock(),
        },
      },
      metadata,
      (existing) =>
        existing.is_curated &&
        existing.to_user_id === owner.userId &&
        existing.question === draft.question &&
        existing.answer === draft.answer,
      alongside,
    );
    return toQuestion(row, 'recipient');
  }

  /** `GET /api/questions?username=X`: a profile's public list. */
  async publicList(query: ListQuestionsQuery & { username: string }): Promise<ListedQuestions> {
    if (query.role && query.role !== 'receiver') throw badRequest(QUESTION_MESSAGES.publicListIsReceiver);
    const page = await this.deps.questions.publicList(query.username, query.limit, query.cursor);
    return listed(page, toPublicQuestion);
  }

  /** "Already answered?" (issue 14): up to 3 public answers of `username` matching the title being typed. */
  async similarAnswers(username: string, title: string): Promise<SimilarAnswer[]> {
    const words = (title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
      .filter((w) => w.length >= 2)
      .slice(0, 12);
    if (words.join('').length < 3) return [];
    const rows = await this.deps.questions.similarAnswers(username.trim().toLowerCase(), words);
    return rows.map((row) => ({
      id: row.id,
      // The public wording when the owner redacted it (issue 14).
      question: row.public_question ?? row.question,
      answer: row.answer ?? '',
      toUsername: row.to_username,
      answeredAt: row.answered_at === null ? null : new Date(row.answered_at).toISOString(),
    }));
  }

  /** `GET /api/questions[?role=…]` with a token: the caller's inbox, asked, curated, or all three. */
  async ownList(claims: AccessClaims, query: ListQuestionsQuery): Promise<ListedQuestions> {
    const { questions } = this.deps;
    const actor = await this.parties.actor(claims);
    const { limit, cursor } = query;
    const page =
      query.role === 'receiver'
        ? await questions.inbox(actor.userId, limit, cursor)
        : query.role === 'curated'
          ? await questions.curated(actor.userId, limit, cursor)
          : query.role === 'asker'
            ? await questions.asked(actor.userId, actor.verifiedEmail, limit, cursor)
            : await questions.mine(actor.userId, actor.verifiedEmail, limit, cursor);
    return listed(page, (row) => ownView(row, actor.userId));
  }

  /** `GET /api/questions/:id`: public when answered and shown; the full record for its parties; else 404. */
  async view(claims: AccessClaims | null, rawId: string): Promise<Question | PublicQuestion> {
    const row = await this.rowOrFail(questionIdOf(rawId));
    return viewFor(row, claims ? await this.parties.actor(claims) : null);
  }

  /** The recipient answers (or, with `skipNotify`, edits the answer). */
  async answer(
    claims: AccessClaims,
    rawId: string,
    body: AnswerQuestionBody,
    metadata: EventMetadata,
  ): Promise<Question> {
    const id = questionIdOf(rawId, 'badRequest');
    const draft = valid(checkAnswerBody(body));
    const actor = await this.parties.actor(claims);
    const now = this.deps.clock();
    await this.deps.commands.handle(
      id,
      draft.skipNotify
        ? {
            type: 'EditAnswer',
            data: { actor, answer: draft.answer, tags: draft.tags, redaction: draft.redaction, now },
          }
        : {
            type: 'PostAnswer',
            data: {
              actor,
              answer: draft.answer,
              tags: draft.tags ?? [],
              displayOnProfile: draft.displayOnProfile ?? true,
              replierName: draft.replierName,
              redaction: draft.redaction,
              now,
            },
          },
      metadata,
    );
    return toQuestion(await this.rowOrFail(id), 'recipient');
  }

  /** The recipient shows, hides or deletes a question. */
  async update(
    claims: AccessClaims,
    rawId: string,
    body: PatchQuestionBody,
    metadata: EventMetadata,
  ): Promise<Question> {
    const id = questionIdOf(rawId);
    const change = valid(checkPatchBody(body));
    const actor = await this.parties.actor(claims);
    const now = this.deps.clock();
    await this.deps.commands.handle(
      id,
      'deletedByReceiver' in change
        ? { type: 'DeleteByReceiver', data: { actor, now } }
        : { type: 'ChangeVisibility', data: { actor, displayOnProfile: change.displayOnProfile, now } },
      metadata,
    );
    return toQuestion(await this.rowOrFail(id), 'recipient');
  }

  /** The asker withdraws a pending question. */
  async withdraw(claims: AccessClaims, rawId: string, metadata: EventMetadata): Promise<void> {
    const id = questionIdOf(rawId);
    const actor = await this.parties.actor(claims);
    await this.deps.commands.handle(
      id,
      { type: 'WithdrawQuestion', data: { actor, now: this.deps.clock() } },
      metadata,
    );
  }

  /**
   * Payments hands over a tipped question at checkout: the ask rules on its payload, rules 6–7 on the tip (cents).
   * `created` is false when payments called again for the same checkout (nothing changed).
   */
  async submitTipped(
    body: SubmitTippedQuestionRequest,
    metadata: EventMetadata,
  ): Promise<{ created: boolean; question: Question }> {
    const draft = valid(checkAskDraft(body.questionData, { signedIn: body.askerUserId !== null }));
    const recipient = await this.parties.recipient(draft.toUserId);
    const amountCents = valid(checkTipCents(body.amountCents));
    const asker = body.askerUserId
      ? await this.parties.knownAsker(body.askerUserId)
      : this.parties.guest(draft.guest!);
    const { events } = await this.deps.commands.handle(
      body.questionId,
      {
        type: 'SubmitTippedQuestion',
        data: {
          questionId: body.questionId,
          recipient,
          asker,
          question: draft.question,
          detail: draft.detail,
          tip: { amount: amountCents, currency: body.currency, paymentRef: body.paymentRef },
          isPrivate: draft.isPrivate,
          now: this.deps.clock(),
        },
      },
      metadata,
      {
        // The browser's link (issue 28), with the question's creation only: the checkout returns to its page.
        alongside: async (trx, result) => {
          if (!draft.statusToken || result.events.length === 0) return;
          await browserLinkInsert(trx, body.questionId, draft.statusToken, this.deps.clock()).execute();
        },
      },
    );
    return {
      created: events.length > 0,
      question: toQuestion(await this.rowOrFail(body.questionId), 'asker'),
    };
  }

  /**
   * Creates a question once. `questionId` comes from the request's Idempotency-Key (`idempotentId`), so a retry of a
   * request whose first attempt committed (and then lost its response) names the same stream: the aggregate refuses
   * a second "ask" (409), and the retry answers with the question that exists — when it is the same question. The
   * same key on another question is the 422 the kit gives a reused key.
   */
  /** Creates the question `command` names; a retry of the same request (`sameRequest`) gets the row it made. */
  private async createOnce(
    command: Extract<QuestionCommand, { type: 'AskQuestion' | 'CurateQuestion' }>,
    metadata: EventMetadata,
    sameRequest: (existing: QuestionRow) => boolean,
    alongside?: (trx: Kysely<QuestionsDB>) => Promise<void>,
    /** The row `alongside` read inside the transaction, if it did (else it is read after the commit). */
    readWithin?: () => QuestionRow | undefined,
  ): Promise<QuestionRow> {
    const { questionId } = command.data;
    try {
      // The id was just derived for this request: no lock, no load (ADR 0049). A retry of a request that committed
      // fails its append at version 0 with the same 409 that an existing question's decision gave.
      await this.deps.commands.handle(questionId, command, metadata, {
        newStream: true,
        ...(alongside ? { alongside: (trx: Kysely<QuestionsDB>) => alongside(trx) } : {}),
      });
    } catch (err) {
      if (!isConflict(err)) throw err;
      const existing = await this.deps.questions.byId(questionId);
      if (!existing) throw err;
      if (!sameRequest(existing)) throw unprocessable(IDEMPOTENCY_MESSAGES.mismatch);
      return existing;
    }
    return readWithin?.() ?? this.rowOrFail(questionId);
  }

  private async rowOrFail(id: string): Promise<QuestionRow> {
    const row = await this.deps.questions.byId(id);
    if (!row) throw notFound(QUESTION_NOT_FOUND);
    return row;
  }
}

function listed<R>(page: Page<R>, render: (row: R) => Question | PublicQuestion): ListedQuestions {
  return { items: page.rows.map(render), nextCursor: page.nextCursor };
}
