import { REPORT_MESSAGES, supportOpsApi } from '@ques/contracts';
import {
  badRequest,
  idempotentId,
  metadataFrom,
  notFound,
  optionalUser,
  recordOperatorAct,
  routeFor,
  scheduleJob,
  unauthorized,
  type HttpApp,
  type ServiceContext,
} from '@ques/kit';
import type { ProofOfWorkCaptcha } from '../captcha/captcha.js';
import { spendCaptcha } from '../captcha/used-captchas.js';
import type { SupportConfig } from '../config.js';
import type { SupportDB } from '../db/schema.js';
import type { SupportRequestCommands } from '../requests/commands.js';
import type { AbuseReportCommands } from '../reports/commands.js';
import { ANSWER_MAIL_JOB, answerMailJobKey } from './answer-mail.js';
import { listReports, listRequests } from './read-models.js';

export interface ConsoleRouteParts {
  captcha: ProofOfWorkCaptcha;
  requests: SupportRequestCommands;
  reports: AbuseReportCommands;
}

/**
 * Issue 18: the console's support requests and abuse reports (operators only: `ctx.operatorGuard`, 404 otherwise),
 * and the public "Report" call (captcha for guests, rate-limited per client like sending a request).
 */
export function registerConsoleRoutes(
  app: HttpApp,
  parts: ConsoleRouteParts,
  ctx: ServiceContext<SupportDB, SupportConfig>,
  limits: { reportLimitPerMinute: number },
): void {
  const { db, clock } = ctx;
  const operatorOf = async (request: Parameters<typeof ctx.operatorGuard>[0]) => {
    const who = await ctx.operatorGuard(request);
    return { name: who.username, userId: who.userId };
  };

  routeFor(app, supportOpsApi.listRequests, async (request) => {
    await operatorOf(request);
    return listRequests(db, request.query);
  });

  routeFor(app, supportOpsApi.answerRequest, async (request) => {
    const operator = await operatorOf(request);
    const { id } = request.params;
    const now = clock();
    const { state } = await parts.requests.load(id);
    if (state.status !== 'requested') throw notFound();
    await parts.requests.handle(
      id,
      { type: 'AnswerRequest', data: { note: request.body.note, operator: operator.name, now } },
      metadataFrom(request, operator.userId),
      {
        alongside: async (trx, result) => {
          if (result.events.length === 0) return;
          await recordOperatorAct(ctx.store, trx, { sub: operator.userId, username: operator.name }, {
            action: 'support.answer',
            subject: `supportRequest:${id}`,
            summary: 'Marked a support request answered',
            detail: {},
          }, metadataFrom(request, operator.userId));
          await scheduleJob(trx, { kind: ANSWER_MAIL_JOB, key: answerMailJobKey(id), dueAt: now, payload: { requestId: id } });
        },
      },
    );
    request.log.info({ requestId: id, operator: operator.name }, 'operator: support request answered');
    const [row] = await listRequests(db, {}, id);
    if (!row) throw notFound();
    return row;
  });

  routeFor(app, supportOpsApi.listReports, async (request) => {
    await operatorOf(request);
    return listReports(db, request.query);
  });

  routeFor(app, supportOpsApi.resolveReport, async (request) => {
    const operator = await operatorOf(request);
    const { id } = request.params;
    const { state } = await parts.reports.load(id);
    if (state.status === 'none') throw notFound();
    await parts.reports.handle(
      id,
      { type: 'Resolve', data: { resolution: request.body.resolution, note: request.body.note ?? null, operator: operator.name, now: clock() } },
      metadataFrom(request, operator.userId),
      {
        alongside: async (trx, result) => {
          if (result.events.length === 0) return;
          await recordOperatorAct(ctx.store, trx, { sub: operator.userId, username: operator.name }, {
            action: `report.${request.body.resolution === 'hidden' ? 'hide' : 'dismiss'}`,
            subject: `abuseReport:${id}`,
            summary: request.body.resolution === 'hidden' ? 'Resolved a report: the answer was hidden' : 'Dismissed a report',
            detail: {},
          }, metadataFrom(request, operator.userId));
        },
      },
    );
    request.log.info({ reportId: id, operator: operator.name, resolution: request.body.resolution }, 'operator: abuse report resolved');
    const [row] = await listReports(db, {}, id);
    if (!row) throw notFound();
    return row;
  });

  routeFor(
    app,
    supportOpsApi.report,
    async (request) => {
      const claims = await optionalUser(request);
      if (claims) {
        const key = await db.selectFrom('personal_data_keys').select('key').where('subject', '=', claims.sub).executeTakeFirst();
        if (key && key.key === null) throw unauthorized('Not authorized, token failed');
      }
      const { body } = request;
      // Guests prove they are not a script with the support captcha; signed-in reporters are known.
      const verified = claims ? null : body.captchaToken ? await parts.captcha.verify(body.captchaToken) : null;
      if (!claims && !verified) throw badRequest(REPORT_MESSAGES.captcha);
      const reportId = idempotentId(request, 'abuse-report');
      const now = clock();
      await parts.reports.handle(
        reportId,
        {
          type: 'Report',
          data: {
            reportId,
            target: body.target,
            reason: body.reason,
            note: body.note ?? null,
            reporter: claims ? { userId: claims.sub, username: claims.username } : null,
            now,
          },
        },
        metadataFrom(request, claims?.sub ?? null),
        { alongside: async (trx, result) => (verified && result.events.length > 0 ? spendCaptcha(trx, verified, now) : undefined) },
      );
      request.log.info({ reportId, target: body.target.kind, signedIn: !!claims }, 'abuse report accepted');
      return { success: true as const };
    },
    { config: { rateLimit: { max: limits.reportLimitPerMinute, timeWindow: '1 minute', groupId: ':report' } } },
  );
}
