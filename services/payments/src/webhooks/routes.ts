import { PAYMENT_MESSAGES, paymentsBrowserCalls } from '@ques/contracts';
import { badRequest, routeFor, type Clock, type HttpApp } from '@ques/kit';
import { WebhookSignatureError, type PaymentProvider } from '../providers/provider.js';
import type { WebhookInbox } from './inbox.js';

export const WEBHOOK_PATH = paymentsBrowserCalls.webhook.path;

/**
 * The provider's webhook. The signature covers the exact bytes sent, so this route reads the body raw (its own
 * content-type parser, in its own plugin scope) and the BFF must forward it unparsed. Verified events are stored and
 * answered at once; processing runs as a job (see inbox.ts).
 */
export async function registerWebhookRoutes(
  app: HttpApp,
  deps: { provider: PaymentProvider; inbox: WebhookInbox; clock: Clock },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    routeFor(scope, paymentsBrowserCalls.webhook, async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      let event;
      try {
        event = deps.provider.verifyWebhook(
          raw,
          typeof signature === 'string' ? signature : undefined,
          deps.clock(),
        );
      } catch (err) {
        if (!(err instanceof WebhookSignatureError)) throw err;
        request.log.warn({ reason: err.message }, 'webhook rejected: bad signature');
        throw badRequest(PAYMENT_MESSAGES.invalidSignature);
      }
      const { duplicate } = await deps.inbox.accept(event);
      request.log.info({ eventId: event.id, type: event.type, duplicate }, 'webhook accepted');
      if (!duplicate) deps.inbox.kick();
      return { received: true as const, duplicate };
    });
  });
}
