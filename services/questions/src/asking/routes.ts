import { DEVICE_HEADER, questionsApi, questionsInternalCalls } from '@ques/contracts';
import { requireUser, routeFor, type HttpApp } from '@ques/kit';
import type { AskerBlocks } from './asker-blocks.js';
import type { Asking } from './asking.js';

/** The owner-control calls (issue 16), declared in contracts with the other questions calls. */
export async function registerAskingRoutes(app: HttpApp, parts: { asking: Asking; blocks: AskerBlocks }): Promise<void> {
  const { asking, blocks } = parts;

  routeFor(app, questionsApi.askingStatus, async (request) => asking.status(request.params.username));

  routeFor(app, questionsApi.askingSettings, async (request) => asking.settings(await requireUser(request)));

  routeFor(app, questionsApi.updateAskingSettings, async (request) =>
    asking.update(await requireUser(request), request.body),
  );

  routeFor(app, questionsApi.listBlocks, async (request) => blocks.list(await requireUser(request)));

  routeFor(app, questionsApi.blockAsker, async (request, reply) => {
    const block = await blocks.block(await requireUser(request), request.params.id);
    return reply.status(201).send(block);
  });

  routeFor(app, questionsApi.liftBlock, async (request) => {
    await blocks.lift(await requireUser(request), request.params.id);
    return { message: 'Block lifted' as const };
  });

  // Payments, before it creates a checkout: the same screening as a free question; nothing stored on a refusal.
  routeFor(app, questionsInternalCalls.screen, async (request) => {
    const b = request.body;
    const ask = {
      toUserId: b.toUserId,
      question: b.question,
      detail: b.detail,
      askerUserId: b.askerUserId,
      guestEmail: b.askedEmail,
      device: b.device ?? (request.headers[DEVICE_HEADER] as string | undefined),
      network: b.network ?? null,
    };
    await asking.screenOrRefuse(ask);
    if (b.questionId) await asking.recordOrigin(b.questionId, ask);
    return { ok: true as const };
  });
}
