import { randomUUID } from 'node:crypto';
import { supportApi, type CaptchaChallenge } from '@ques/contracts';
import {
  metadataFrom,
  optionalUser,
  routeFor,
  scheduleJob,
  unauthorized,
  type HttpApp,
  type ServiceContext,
} from '@ques/kit';
import type { SupportConfig } from '../config.js';
import type { SupportDB } from '../db/schema.js';
import type { ProofOfWorkCaptcha } from '../captcha/captcha.js';
import { spendCaptcha } from '../captcha/used-captchas.js';
import type { SupportRequestCommands } from './commands.js';
import { INBOX_MAIL_JOB, inboxMailJobKey } from './inbox-mail.js';

export interface SupportRoutesParts {
  captcha: ProofOfWorkCaptcha;
  requests: SupportRequestCommands;
}

export interface SupportRouteLimits {
  /** Per client per minute, for sending. */
  sendLimitPerMinute: number;
  /** Per client per minute, for fetching challenges (cheap, but not free to sign). */
  challengeLimitPerMinute: number;
}

async function isForgotten(ctx: ServiceContext<SupportDB, SupportConfig>, userId: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('personal_data_keys')
    .select('key')
    .where('subject', '=', userId)
    .executeTakeFirst();
  return !!row && row.key === null;
}

export async function registerSupportRoutes(
  app: HttpApp,
  parts: SupportRoutesParts,
  ctx: ServiceContext<SupportDB, SupportConfig>,
  deps: SupportRouteLimits,
): Promise<void> {
  const { captcha, requests } = parts;
  const { clock } = ctx;

  routeFor(
    app,
    supportApi.getCaptcha,
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      // altcha-lib's interface type has no index signature; the schema is the loose object it is.
      return (await captcha.challenge()) as CaptchaChallenge;
    },
    { config: { rateLimit: { max: deps.challengeLimitPerMinute, timeWindow: '1 minute', groupId: ':captcha' } } },
  );

  routeFor(
    app,
    supportApi.send,
    async (request) => {
      // The sender is whoever the token says (or a guest); the body's userId is never trusted.
      const claims = await optionalUser(request);
      // An access token outlives its account by up to 15 minutes; a deleted person's data is not recorded again.
      if (claims && (await isForgotten(ctx, claims.sub))) throw unauthorized('Not authorized, token failed');
      // Fields first, so a form mistake does not burn a solved captcha.
      const { body } = request;
      const verified = await captcha.verify(body.captchaToken);
      const requestId = randomUUID();
      const now = clock();
      await requests.handle(
        requestId,
        {
          type: 'RequestSupport',
          data: {
            requestId,
            category: body.category,
            title: body.title,
            description: body.description,
            requester: claims ? { userId: claims.sub, username: claims.username } : null,
            now,
          },
        },
        metadataFrom(request, claims?.sub ?? null),
        {
          alongside: async (trx) => {
            await spendCaptcha(trx, verified, now);
            await scheduleJob(trx, {
              kind: INBOX_MAIL_JOB,
              key: inboxMailJobKey(requestId),
              dueAt: now,
              payload: { requestId },
            });
          },
        },
      );
      request.log.info(
        { requestId, category: body.category, signedIn: !!claims },
        'support request accepted',
      );
      return { success: true as const };
    },
    { config: { rateLimit: { max: deps.sendLimitPerMinute, timeWindow: '1 minute', groupId: ':send' } } },
  );
}
