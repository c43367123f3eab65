import { questionsOpsApi } from '@ques/contracts';
import { metadataFrom, notFound, routeFor, type HttpApp, type ServiceContext } from '@ques/kit';
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
    await commands.handle(
      id,
      { type: 'HideByOperator', data: { reason: body.reason, operator: operator.username, reportId: body.reportId ?? null, now: ctx.clock() } },
      metadataFrom(request, operator.userId),
    );
    request.log.info({ questionId: id, operator: operator.username, reportId: body.reportId }, 'operator: answer hidden');
    return { questionId: id, hidden: true as const, reason: body.reason.trim() };
  });
}
