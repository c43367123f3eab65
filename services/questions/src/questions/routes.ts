import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ANSWER_MESSAGES,
  ASK_MESSAGES,
  checkAnswerBody,
  checkAskDraft,
  checkCurateDraft,
  checkTipCents,
  checkTipDollars,
  GUEST_USERNAME,
  isUuid,
  NEXT_CURSOR_HEADER,
  ZListQuestionsQuery,
  checkPatchBody,
  ZSubmitTippedQuestionRequest,
  type Checked,
  type PublicQuestion,
  type Question,
} from '@ques/contracts';
import {
  badRequest,
  forbidden,
  metadataFrom,
  notFound,
  optionalUser,
  parseWith,
  requireUser,
  unprocessable,
  type AccessClaims,
  type HttpApp,
  type ServiceContext,
} from '@ques/kit';
import type { QuestionsConfig } from '../config.js';
import type { QuestionsDB } from '../db/schema.js';
import type { RecipientsReadModel } from '../recipients/recipients.js';
import type { QuestionCommands } from './commands.js';
import { QUESTION_NOT_FOUND } from './domain/decide.js';
import type { Actor, Asker, Recipient } from './domain/question.js';
import {
  toPublicQuestion,
  toQuestion,
  type Page,
  type QuestionRow,
  type QuestionsReadModel,
} from './read-models/questions.js';

export interface QuestionRoutesParts {
  commands: QuestionCommands;
  questions: QuestionsReadModel;
  recipients: RecipientsReadModel;
}

/** The spec's validation answers: 400 with the rule's message. */
function valid<T>(checked: Checked<T>): T {
  if (!checked.ok) throw badRequest(checked.message);
  return checked.value;
}

const toRecipient = (row: { user_id: string; username: string; name: string; email: string }): Recipient => ({
  userId: row.user_id,
  username: row.username,
  name: row.name,
  email: row.email,
});

type Viewer = 'recipient' | 'asker' | 'public' | null;

function viewerOf(row: QuestionRow, actor: Actor | null): Viewer {
  if (row.lifecycle === 'awaiting_payment') return null;
  if (actor && row.to_user_id === actor.userId) return 'recipient';
  if (
    actor &&
    (row.asker_user_id
      ? row.asker_user_id === actor.userId
      : !!actor.email && row.asked_email === actor.email)
  )
    return 'asker';
  if (row.lifecycle === 'answered' && row.display_on_profile && !row.deleted_by_receiver) return 'public';
  return null;
}

function view(row: QuestionRow, viewer: Exclude<Viewer, null>): Question | PublicQuestion {
  return viewer === 'public' ? toPublicQuestion(row) : toQuestion(row, viewer);
}

function sendPage(reply: FastifyReply, page: Page, render: (row: QuestionRow) => unknown) {
  if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
  return reply.send(page.rows.map(render));
}

export async function registerQuestionRoutes(
  app: HttpApp,
  parts: QuestionRoutesParts,
  ctx: ServiceContext<QuestionsDB, QuestionsConfig>,
): Promise<void> {
  const { commands, questions, recipients } = parts;
  const { clock } = ctx;
  /** When set, `/internal/*` calls must carry it in `x-internal-token`. */
  const internalToken = ctx.config.INTERNAL_API_TOKEN;

  /** The caller as the domain sees them: account id and current e-mail (for guest questions asked with it). */
  async function actorOf(claims: AccessClaims): Promise<Actor> {
    const me = await recipients.byId(claims.sub);
    return { userId: claims.sub, email: me?.email ?? null };
  }

  /** A signed-in asker: identity from the token and the local users copy, never from the body. */
  async function accountAsker(claims: AccessClaims): Promise<Asker> {
    const me = await recipients.byId(claims.sub);
    return {
      userId: claims.sub,
      username: claims.username,
      name: me?.name ?? claims.username,
      email: me?.email ?? null,
    };
  }

  /** Spec §5 rules 4–5 on the server, plus: no questions to archive profiles. */
  async function resolveRecipient(toUserId: string): Promise<Recipient> {
    const row = await recipients.byId(toUserId);
    if (!row) throw badRequest(ASK_MESSAGES.recipientMissing);
    if (!row.email) throw badRequest(ASK_MESSAGES.recipientEmailMissing);
    if (row.archive_profile) throw unprocessable(ASK_MESSAGES.archiveProfile);
    return toRecipient(row);
  }

  function questionIdOf(raw: string, message = QUESTION_NOT_FOUND): string {
    if (!isUuid(raw)) throw message === QUESTION_NOT_FOUND ? notFound(message) : badRequest(message);
    return raw.toLowerCase();
  }

  async function rowOrFail(id: string): Promise<QuestionRow> {
    const row = await questions.byId(id);
    if (!row) throw notFound(QUESTION_NOT_FOUND);
    return row;
  }

  // POST /api/questions — a free question (guest or signed in), or a curated Q&A (owner, isCurated: true).
  app.post('/api/questions', async (request, reply) => {
    const claims = await optionalUser(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const metadata = metadataFrom(request, claims?.sub ?? null);
    const questionId = randomUUID();

    if (body.isCurated === true) {
      const owner = await requireUser(request);
      const draft = valid(checkCurateDraft(body));
      if (
        typeof body.toUsername === 'string' &&
        body.toUsername.trim() &&
        body.toUsername.trim().toLowerCase() !== owner.username
      ) {
        throw forbidden('You can only curate Q&A for your own profile.');
      }
      const me = await recipients.byId(owner.sub);
      const recipient: Recipient = me
        ? toRecipient(me)
        : { userId: owner.sub, username: owner.username, name: owner.username, email: '' };
      await commands.handle(
        questionId,
        {
          type: 'CurateQuestion',
          data: {
            questionId,
            owner: recipient,
            ...draft,
            replierName: draft.replierName ?? recipient.name,
            now: clock(),
          },
        },
        metadata,
      );
      return reply.status(201).send(toQuestion(await rowOrFail(questionId), 'recipient'));
    }

    const draft = valid(checkAskDraft(body, { signedIn: !!claims }));
    const recipient = await resolveRecipient(draft.toUserId);
    const tip = valid(checkTipDollars(body.tip));
    if (tip > 0) throw unprocessable(ASK_MESSAGES.tipNeedsCheckout);
    const asker: Asker = claims
      ? await accountAsker(claims)
      : { userId: null, username: GUEST_USERNAME, ...draft.guest! };
    await commands.handle(
      questionId,
      {
        type: 'AskQuestion',
        data: { questionId, recipient, asker, question: draft.question, detail: draft.detail, now: clock() },
      },
      metadata,
    );
    const row = await rowOrFail(questionId);
    return reply.status(201).send(toQuestion(row, row.to_user_id === claims?.sub ? 'recipient' : 'asker'));
  });

  // GET /api/questions?username=X&role=receiver — the public list; without username (token): the caller's own.
  app.get('/api/questions', async (request, reply) => {
    const query = parseWith(ZListQuestionsQuery, request.query);
    if (query.username) {
      if (query.role && query.role !== 'receiver') throw badRequest('The public list is role=receiver');
      const page = await questions.publicList(query.username, query.limit, query.cursor);
      return sendPage(reply, page, toPublicQuestion);
    }
    const claims = await requireUser(request);
    const actor = await actorOf(claims);
    const page =
      query.role === 'receiver'
        ? await questions.inbox(actor.userId, query.limit, query.cursor)
        : query.role === 'curated'
          ? await questions.curated(actor.userId, query.limit, query.cursor)
          : query.role === 'asker'
            ? await questions.asked(actor.userId, actor.email, query.limit, query.cursor)
            : await questions.mine(actor.userId, actor.email, query.limit, query.cursor);
    return sendPage(reply, page, (row) =>
      toQuestion(row, row.to_user_id === actor.userId ? 'recipient' : 'asker'),
    );
  });

  // GET /api/questions/:id — public when answered and shown; the full record for its asker and recipient; else 404.
  app.get<{ Params: { id: string } }>('/api/questions/:id', async (request) => {
    const id = questionIdOf(request.params.id);
    const claims = await optionalUser(request);
    const row = await rowOrFail(id);
    const viewer = viewerOf(row, claims ? await actorOf(claims) : null);
    if (!viewer) throw notFound(QUESTION_NOT_FOUND);
    return view(row, viewer);
  });

  // PUT /api/questions/:id/answer — recipient only; `skipNotify: true` edits the existing answer.
  app.put<{ Params: { id: string } }>('/api/questions/:id/answer', async (request) => {
    const claims = await requireUser(request);
    const id = questionIdOf(request.params.id, ANSWER_MESSAGES.invalidQuestionId);
    const body = valid(checkAnswerBody(request.body));
    const actor = await actorOf(claims);
    const now = clock();
    await commands.handle(
      id,
      body.skipNotify
        ? { type: 'EditAnswer', data: { actor, answer: body.answer, tags: body.tags, now } }
        : {
            type: 'PostAnswer',
            data: {
              actor,
              answer: body.answer,
              tags: body.tags ?? [],
              displayOnProfile: body.displayOnProfile ?? true,
              replierName: body.replierName,
              now,
            },
          },
      metadataFrom(request, claims.sub),
    );
    return toQuestion(await rowOrFail(id), 'recipient');
  });

  // PATCH /api/questions/:id — recipient only: { displayOnProfile } or { deletedByReceiver: true }.
  app.patch<{ Params: { id: string } }>('/api/questions/:id', async (request) => {
    const claims = await requireUser(request);
    const id = questionIdOf(request.params.id);
    const body = valid(checkPatchBody(request.body));
    const actor = await actorOf(claims);
    const now = clock();
    await commands.handle(
      id,
      'deletedByReceiver' in body
        ? { type: 'DeleteByReceiver', data: { actor, now } }
        : { type: 'ChangeVisibility', data: { actor, displayOnProfile: body.displayOnProfile, now } },
      metadataFrom(request, claims.sub),
    );
    return toQuestion(await rowOrFail(id), 'recipient');
  });

  // DELETE /api/questions/:id — the asker withdraws a pending question.
  app.delete<{ Params: { id: string } }>('/api/questions/:id', async (request) => {
    const claims = await requireUser(request);
    const id = questionIdOf(request.params.id);
    const actor = await actorOf(claims);
    await commands.handle(
      id,
      { type: 'WithdrawQuestion', data: { actor, now: clock() } },
      metadataFrom(request, claims.sub),
    );
    return { message: 'Question withdrawn' };
  });

  // POST /internal/questions/tipped — payments (not the BFF) hands over a question whose tip goes through checkout.
  app.post('/internal/questions/tipped', async (request, reply) => {
    checkInternal(request, internalToken);
    const body = parseWith(ZSubmitTippedQuestionRequest, request.body);
    const draft = valid(checkAskDraft(body.questionData, { signedIn: body.askerUserId !== null }));
    const recipient = await resolveRecipient(draft.toUserId);
    const amount = valid(checkTipCents(body.tipAmount));
    let asker: Asker;
    if (body.askerUserId) {
      const me = await recipients.byId(body.askerUserId);
      if (!me) throw unprocessable('The asker is not known. Please try again later.');
      asker = { userId: me.user_id, username: me.username, name: me.name, email: me.email };
    } else asker = { userId: null, username: GUEST_USERNAME, ...draft.guest! };
    const { events } = await commands.handle(
      body.questionId,
      {
        type: 'SubmitTippedQuestion',
        data: {
          questionId: body.questionId,
          recipient,
          asker,
          question: draft.question,
          detail: draft.detail,
          tip: { amount, currency: body.currency, paymentRef: body.paymentRef },
          now: clock(),
        },
      },
      metadataFrom(request, body.askerUserId),
    );
    return reply
      .status(events.length > 0 ? 201 : 200)
      .send(toQuestion(await rowOrFail(body.questionId), 'asker'));
  });
}

function checkInternal(request: FastifyRequest, token: string | undefined): void {
  if (!token) return;
  const given = request.headers['x-internal-token'];
  const ok =
    typeof given === 'string' &&
    given.length === token.length &&
    timingSafeEqual(Buffer.from(given), Buffer.from(token));
  if (!ok) throw forbidden();
}
