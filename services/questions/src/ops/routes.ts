import { questionsOpsApi } from '@ques/contracts';
import { metadataFrom, notFound, recordOperatorAct, routeFor, type HttpApp, type ServiceContext } from '@ques/kit';
import type { QuestionsConfig } from '../config.js';
import type { QuestionsDB } from '../db/schema.js';
import type { QuestionCommands } from '../questions/commands.js';

/**
 * Issue 18: an operator hides an answer from every public surface (the public page, its answer page, the sitemap,
 * similar answers — all read `display_on_profile`), with a reason its owner sees in their inbox. Operators only.
 */
export function registerQuestionsOpsRoutes(
  app: HttpApp,
  commands: QuestionCommands,
  ctx: ServiceContext<QuestionsDB, QuestionsConfig>,
): void {
  routeFor(app, questionsOpsApi.hideAnswer, async (request) => {
    const operator = await ctx.operatorGuard(request);
    const { id } = request.params;
    const { state } = await commands.load(id);
    if (state.status === 'none') throw notFound();
    const { body } = request;
    const metadata = metadataFrom(request, operator.userId);
    await commands.handle(
      id,
      { type: 'HideByOperator', data: { reason: body.reason, operator: operator.username, reportId: body.reportId ?? null, now: ctx.clock() } },
      metadata,
      {
        // The audit record commits with the action (ADR 0031).
        alongside: async (trx, result) => {
          if (result.events.length === 0) return;
          await recordOperatorAct(ctx.store, trx, { sub: operator.userId, username: operator.username }, {
            action: 'answer.hide',
            subject: `question:${id}`,
            summary: `Hid an answer from public view: ${body.reason.trim()}`,
            detail: { reportId: body.reportId ?? null },
          }, metadata);
        },
      },
    );
    request.log.info({ questionId: id, operator: operator.username, reportId: body.reportId }, 'operator: answer hidden');
    return { questionId: id, hidden: true as const, reason: body.reason.trim() };
  });
}
