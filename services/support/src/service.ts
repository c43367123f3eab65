import rateLimit from '@fastify/rate-limit';
import {
  startService,
  tooManyRequests,
  type Mailer,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceRuntime,
} from '@ques/kit';
import { ProofOfWorkCaptcha, type CaptchaOptions } from './captcha/captcha.js';
import { supportMigrations } from './db/migrations/index.js';
import { clientKey, type TrustProxy } from './http/client-key.js';
import { postgresRateLimitStore } from './http/rate-limit-store.js';
import { INBOX_MAIL_JOB, inboxMailJob } from './requests/inbox-mail.js';
import { supportIntegration } from './requests/integration.js';
import { forgetDeletedUsers, supportVault } from './requests/personal-data.js';
import { registerSupportRoutes } from './requests/routes.js';

export interface SupportOptions {
  /** `CAPTCHA_HMAC_KEY`. */
  captchaHmacKey: string;
  captcha?: Omit<CaptchaOptions, 'hmacKey' | 'clock'>;
  /** `SUPPORT_INBOX`: where requests are mailed. */
  inbox: string;
  /** The kit mailer (SMTP, or .eml files in embedded mode and tests). */
  mailer: Pick<Mailer, 'send'>;
  /** Sends per client per minute. Default 5. */
  rateLimitPerMinute?: number;
  /** Default `loopback`: the BFF in front of us runs on this host. */
  trustProxy?: TrustProxy;
}

export interface SupportExtra {
  captcha: ProofOfWorkCaptcha;
}

/** What the admin CLI needs: no routes, no mailer. */
export const supportCore = {
  name: 'support',
  context: 'support',
  migrations: supportMigrations,
  // No read model: nothing reads requests back; the inbox mail job reads the request's own stream.
  projections: [],
  toIntegration: supportIntegration,
  cipher: supportVault,
} satisfies Omit<ServiceDefinition<unknown>, 'setup'>;

export function supportService(options: SupportOptions): ServiceDefinition<SupportExtra> {
  return {
    ...supportCore,
    consumes: ['identity'],
    consumers: () => [forgetDeletedUsers(supportVault)],
    jobs: (ctx) => ({
      [INBOX_MAIL_JOB]: inboxMailJob({ ctx, mailer: options.mailer, inbox: options.inbox }),
    }),
    async setup(app, ctx) {
      await app.register(rateLimit, {
        global: false,
        store: postgresRateLimitStore(ctx.database.db, ctx.clock),
        // The limiter's database being down must not turn every request into a 500 on its own.
        skipOnError: true,
        keyGenerator: clientKey(options.trustProxy ?? 'loopback'),
        errorResponseBuilder: (_request, context) =>
          tooManyRequests(`Too many requests. Please try again in ${context.after}.`),
      });
      const captcha = new ProofOfWorkCaptcha({
        ...options.captcha,
        hmacKey: options.captchaHmacKey,
        clock: ctx.clock,
      });
      const sendLimitPerMinute = options.rateLimitPerMinute ?? 5;
      await registerSupportRoutes(app, {
        ctx,
        captcha,
        sendLimitPerMinute,
        challengeLimitPerMinute: Math.max(30, sendLimitPerMinute * 6),
      });
      return { captcha };
    },
  };
}

export type SupportDeps = ServiceDeps & { support: SupportOptions };

export function startSupportService(deps: SupportDeps): Promise<ServiceRuntime<SupportExtra>> {
  const { support, ...serviceDeps } = deps;
  return startService(supportService(support), serviceDeps);
}
