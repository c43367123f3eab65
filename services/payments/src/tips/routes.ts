import { NEXT_CURSOR_HEADER, paymentsApi } from '@ques/contracts';
import { idempotentId, metadataFrom, optionalUser, requireUser, routeFor, type HttpApp } from '@ques/kit';
import type { TipActions } from './actions.js';
import type { CheckoutSaga } from './checkout.js';
import { deviceOf } from './screening.js';

/**
 * The tip calls declared in contracts (`paymentsApi`): who is calling, then the checkout saga (`checkout.ts`) or the
 * tip actions (`actions.ts`). Method, path, schemas and the Idempotency-Key opt-in come from the declarations.
 */
export async function registerTipRoutes(
  app: HttpApp,
  parts: { checkout: CheckoutSaga; actions: TipActions },
): Promise<void> {
  const { checkout, actions } = parts;

  routeFor(app, paymentsApi.createCheckoutSession, async (request) => {
    const claims = await optionalUser(request);
    // The question's id comes from the Idempotency-Key (random without one): a retry names the same checkout.
    return checkout.start(request.body, {
      claims,
      questionId: idempotentId(request),
      metadata: metadataFrom(request, claims?.sub ?? null),
      device: deviceOf(request),
      network: request.ip,
      log: request.log,
    });
  });

  routeFor(app, paymentsApi.finalizePayment, async (request, reply) => {
    const claims = await requireUser(request);
    const outcome = await actions.finalize(claims, request.params.id, metadataFrom(request, claims.sub), request.log);
    return reply.status(outcome.status).send(outcome.body);
  });

  routeFor(app, paymentsApi.cancelPayment, async (request, reply) => {
    const claims = await requireUser(request);
    const outcome = await actions.cancel(claims, request.params.id, metadataFrom(request, claims.sub), request.log);
    return reply.status(outcome.status).send(outcome.body);
  });

  routeFor(app, paymentsApi.earnings, async (request, reply) => {
    const claims = await requireUser(request);
    const { body, nextCursor } = await actions.earnings(claims, request.query);
    if (nextCursor) void reply.header(NEXT_CURSOR_HEADER, nextCursor);
    return body;
  });
}
