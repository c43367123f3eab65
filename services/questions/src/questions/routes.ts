import type { FastifyReply } from 'fastify';
import { DEVICE_HEADER, NEXT_CURSOR_HEADER, questionsApi, questionsInternalCalls } from '@ques/contracts';
import {
  idempotentId,
  metadataFrom,
  optionalUser,
  ReadCache,
  requireUser,
  routeFor,
  type HttpApp,
  type ServiceContext,
} from '@ques/kit';
import type { QuestionsConfig } from '../config.js';
import type { QuestionsDB } from '../db/schema.js';
import type { ListedQuestions, QuestionActions } from './actions.js';

export interface QuestionRoutesParts {
  actions: QuestionActions;
}

/** The array of a list, with the next page's cursor in its header. */
function sendList(reply: FastifyReply, list: ListedQuestions) {
  if (list.nextCursor) void reply.header(NEXT_CURSOR_HEADER, list.nextCursor);
  return list.items;
}

/**
 * The questions calls declared in contracts (`questionsApi`, `questionsInternalCalls`): who is calling, then the
 * action (`actions.ts`) and the status. Method, path, schemas and the Idempotency-Key opt-in come from the
 * declarations.
 */
export async function registerQuestionRoutes(
  app: HttpApp,
  parts: QuestionRoutesParts,
  ctx: ServiceContext<QuestionsDB, QuestionsConfig>,
): Promise<void> {
  const { actions } = parts;

  const cache = await listCache(app, ctx);
  routeFor(app, questionsApi.list, async (request, reply) => {
    const { query } = request;
    // Who is asking is checked before the cache is (a revoked token reads nothing, cached or not).
    const claims = query.username ? null : await requireUser(request);
    const read = () =>
      query.username
        ? actions.publicList({ ...query, username: query.username })
        : actions.ownList(claims!, query);
    if (!cache) return sendList(reply, await read());
    // The public list is the same for everyone; an own list is the verified caller's, keyed by their id (ADR 0040).
    const key = JSON.stringify([claims?.sub ?? null, query.username ?? null, query.role ?? null, query.limit, query.cursor ?? null]);
    const cached = await cache.through(key, async () => {
      const list = await read();
      // The route's own serializer (its response schema): the same text an uncached reply would carry.
      return { json: reply.serialize(list.items) as string, nextCursor: list.nextCursor };
    });
    if (cached.nextCursor) void reply.header(NEXT_CURSOR_HEADER, cached.nextCursor);
    // Text with a JSON content type goes out as is (no second serialisation).
    return (reply as FastifyReply).type('application/json; charset=utf-8').send(cached.json);
  });

  routeFor(app, questionsApi.ask, async (request, reply) => {
    const { body } = request;
    // The id comes from the Idempotency-Key (random without one): a retry names the question its first try created.
    const questionId = idempotentId(request);
    if (body.isCurated === true) {
      const owner = await requireUser(request);
      const question = await actions.curate(owner, body, questionId, metadataFrom(request, owner.sub));
      return reply.status(201).send(question);
    }
    const claims = await optionalUser(request);
    const device = request.headers[DEVICE_HEADER];
    const question = await actions.ask(
      claims,
      body,
      questionId,
      metadataFrom(request, claims?.sub ?? null),
      typeof device === 'string' ? device : null,
      // The trusted proxy chain's client address (kit `trustProxy`): the guest limit's network bucket.
      request.ip,
    );
    return reply.status(201).send(question);
  });

  routeFor(app, questionsApi.get, async (request) =>
    actions.view(await optionalUser(request), request.params.id),
  );

  routeFor(app, questionsApi.answer, async (request) => {
    const claims = await requireUser(request);
    return actions.answer(claims, request.params.id, request.body, metadataFrom(request, claims.sub));
  });

  routeFor(app, questionsApi.update, async (request) => {
    const claims = await requireUser(request);
    return actions.update(claims, request.params.id, request.body, metadataFrom(request, claims.sub));
  });

  routeFor(app, questionsApi.withdraw, async (request) => {
    const claims = await requireUser(request);
    await actions.withdraw(claims, request.params.id, metadataFrom(request, claims.sub));
    return { message: 'Question withdrawn' as const };
  });

  // Payments (not the BFF) hands over a question whose tip goes through checkout.
  routeFor(app, questionsInternalCalls.submitTipped, async (request, reply) => {
    const { created, question } = await actions.submitTipped(
      request.body,
      metadataFrom(request, request.body.askerUserId),
    );
    return reply.status(created ? 201 : 200).send(question);
  });
}

/** A list as sent: the serialised array and the next page's cursor. */
interface CachedList {
  json: string;
  nextCursor: string | null;
}

/**
 * The read cache of `GET /api/questions` (ADR 0040): emptied by every change of questions' read model — this
 * instance's appends at their commit, other instances' through NOTIFY. None with `READ_CACHE=off`.
 */
async function listCache(app: HttpApp, ctx: ServiceContext<QuestionsDB, QuestionsConfig>): Promise<ReadCache<CachedList> | null> {
  if (ctx.config.READ_CACHE === 'off') return null;
  const cache = new ReadCache<CachedList>();
  const stop = await cache.subscribe(ctx.database);
  app.addHook('onClose', () => stop());
  return cache;
}

