import rateLimit from '@fastify/rate-limit';
import { opsApi } from '@ques/contracts';
import { operatorAuditProjection, registerOperatorAuditRoute, tooManyRequests, type ServiceDefinition } from '@ques/kit';
import { ProofOfWorkCaptcha } from './captcha/captcha.js';
import { loadSupportConfig, type SupportConfig } from './config.js';
import { supportMigrations } from './db/migrations/index.js';
import type { SupportDB } from './db/schema.js';
import { clientKey } from './http/client-key.js';
import { postgresRateLimitStore } from './http/rate-limit-store.js';
import { supportRequestCommands, type SupportRequestCommands } from './requests/commands.js';
import { INBOX_MAIL_JOB, inboxMailJob } from './requests/inbox-mail.js';
import { supportIntegration } from './requests/integration.js';
import { forgetDeletedUsers, supportVault } from './requests/personal-data.js';
import { registerSupportRoutes } from './requests/routes.js';
import { ANSWER_MAIL_JOB, answerMailJob } from './console/answer-mail.js';
import { abuseReportsProjection, contactsConsumer, supportRequestsProjection } from './console/read-models.js';
import { registerConsoleRoutes } from './console/routes.js';
import { abuseReportCommands, type AbuseReportCommands } from './reports/commands.js';

/** What support builds once and its routes and jobs share. */
export interface SupportParts {
  captcha: ProofOfWorkCaptcha;
  requests: SupportRequestCommands;
  reports: AbuseReportCommands;
}

export const supportService: ServiceDefinition<SupportDB, SupportConfig, SupportParts> = {
  name: 'support',
  config: loadSupportConfig,
  migrations: supportMigrations,
  // The operator console's read models (issue 18); the mail jobs read a request's own stream.
  projections: [supportRequestsProjection, abuseReportsProjection, operatorAuditProjection],
  toIntegration: supportIntegration,
  cipher: supportVault,
  consumes: ['identity'],
  // Requests are mailed to the support inbox.
  mail: (config) => ({ from: config.MAIL_FROM, smtpUrl: config.SMTP_URL, mailDir: config.MAIL_DIR }),
  build: ({ store, clock, config }) => ({
    captcha: new ProofOfWorkCaptcha({
      cost: config.CAPTCHA_COST,
      maxCounter: config.CAPTCHA_MAX_COUNTER,
      hmacKey: config.CAPTCHA_HMAC_KEY,
      clock,
    }),
    requests: supportRequestCommands(store),
    reports: abuseReportCommands(store),
  }),
  async routes(app, parts, ctx) {
    await app.register(rateLimit, {
      global: false,
      store: postgresRateLimitStore(ctx.db, ctx.clock),
      // The limiter's database being down must not turn every request into a 500 on its own.
      skipOnError: true,
      keyGenerator: clientKey(ctx.config.TRUST_PROXY),
      errorResponseBuilder: (_request, context) => tooManyRequests(`Too many requests. Please try again in ${context.after}.`),
    });
    const sendLimitPerMinute = ctx.config.SUPPORT_RATE_LIMIT_PER_MINUTE;
    await registerSupportRoutes(app, parts, ctx, {
      sendLimitPerMinute,
      challengeLimitPerMinute: Math.max(30, sendLimitPerMinute * 6),
    });
    registerConsoleRoutes(app, parts, ctx, { reportLimitPerMinute: sendLimitPerMinute });
    // Issue 18: the operators' audit of support (answered requests, resolved reports, stream actions).
    registerOperatorAuditRoute(app, ctx.db, opsApi.auditSupport);
  },
  consumers: () => [forgetDeletedUsers(supportVault), contactsConsumer()],
  jobs: ({ requests }, { store, mailer, config, clock, log }) => {
    if (!mailer) throw new Error('support needs a mailer: it mails every request to the support inbox');
    return {
      [INBOX_MAIL_JOB]: inboxMailJob({ store, requests, mailer, inbox: config.SUPPORT_INBOX, clock, log }),
      [ANSWER_MAIL_JOB]: answerMailJob({ store, requests, mailer, clock, log }),
    };
  },
};
