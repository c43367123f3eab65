import { join } from 'node:path';
import { guardInternalCalls, operatorAuditProjection, registerOperatorAuditRoute, type ServiceDefinition } from '@ques/kit';
import { opsApi } from '@ques/contracts';
import { Asking } from './asking/asking.js';
import { nudgeJobs } from './asking/nudges.js';
import { AskerBlocks } from './asking/asker-blocks.js';
import { registerAskingRoutes } from './asking/routes.js';
import { registerExportRoutes } from './exports/export.js';
import { registerOnboardingFactsRoute } from './exports/onboarding.js';
import { loadQuestionsConfig, type QuestionsConfig } from './config.js';
import { questionsMigrations } from './db/migrations/index.js';
import type { QuestionsDB } from './db/schema.js';
import { tipsConsumer } from './payments/tips-consumer.js';
import { QuestionActions } from './questions/actions.js';
import { queueMail, questionCommands, questionJobs, type QuestionCommands } from './questions/commands.js';
import { questionsIntegration } from './questions/integration.js';
import { questionsVault } from './questions/personal-data.js';
import { questionsProjection, QuestionsReadModel } from './questions/read-models/questions.js';
import { registerQuestionRoutes } from './questions/routes.js';
import { registerSitemapRoutes, SitemapReadModel } from './sitemap/sitemap.js';
import { deletedUsersProjection, recipientsConsumer, RecipientsReadModel } from './recipients/recipients.js';
import { Parties } from './questions/parties.js';
import { registerStatusRoutes } from './status/routes.js';
import { ArchiveCuration, registerCurationOpsRoutes } from './ops/curation.js';
import { registerQuestionsOpsRoutes } from './ops/routes.js';
import { StatusPages } from './status/status-pages.js';
import { registerTrustRoutes, TrustStatsReadModel, trustTimingsProjection } from './trust/trust-stats.js';

/** What questions builds once and its routes, consumers and jobs share. */
export interface QuestionsParts {
  commands: QuestionCommands;
  questions: QuestionsReadModel;
  recipients: RecipientsReadModel;
  /** What the routes do (people, rules, command, the view the caller may see). */
  actions: QuestionActions;
  /** Owner control over asking: settings and screening (issue 16). */
  asking: Asking;
  /** The owner's blocks (issue 16). */
  blocks: AskerBlocks;
  /** The asker's private status page (issue 14). */
  statusPages: StatusPages;
  /** Public trust stats (issue 15). */
  trust: TrustStatsReadModel;
}

export const questionsService: ServiceDefinition<QuestionsDB, QuestionsConfig, QuestionsParts> = {
  name: 'questions',
  config: loadQuestionsConfig,
  migrations: questionsMigrations,
  // Order matters: the erasure of deleted people runs on the row the questions projection just wrote.
  projections: [questionsProjection, deletedUsersProjection, trustTimingsProjection, operatorAuditProjection],
  toIntegration: questionsIntegration,
  cipher: questionsVault,
  consumes: ['identity', 'payments'],
  // The notification e-mails.
  mail: (config) => ({ from: config.MAIL_FROM, smtpUrl: config.SMTP_URL, mailDir: join(config.DATA_DIR, 'mail') }),
  build: ({ store, db, clock, config, log }) => {
    const commands = questionCommands(store, { clock, publicOrigin: config.PUBLIC_ORIGIN, log });
    const questions = new QuestionsReadModel(db);
    const recipients = new RecipientsReadModel(db);
    const asking = new Asking({ db, recipients, clock });
    const blocks = new AskerBlocks({ db, recipients, clock });
    const actions = new QuestionActions({ commands, questions, recipients, clock, asking });
    const statusPages = new StatusPages({
      db,
      store,
      recipients,
      commands,
      questions,
      parties: new Parties(recipients),
      clock,
      publicOrigin: config.PUBLIC_ORIGIN,
    });
    const trust = new TrustStatsReadModel({ db, clock });
    return { commands, questions, recipients, actions, asking, blocks, statusPages, trust };
  },
  routes: async (app, parts, ctx) => {
    // Every /internal/* route (payments' hand-over and screening, identity's export and checklist reads) needs the token.
    guardInternalCalls(app, ctx.config.INTERNAL_API_TOKEN);
    await registerQuestionRoutes(app, parts, ctx);
    await registerAskingRoutes(app, parts);
    registerStatusRoutes(app, parts.statusPages, parts.actions);
    registerSitemapRoutes(app, new SitemapReadModel(ctx.db));
    registerQuestionsOpsRoutes(app, parts.commands, ctx);
    // Issue 18: curated Q&A of archive profiles from the operator console.
    const { commands, actions, questions, recipients } = parts;
    registerCurationOpsRoutes(app, new ArchiveCuration({ store: ctx.store, commands, actions, questions, recipients, clock: ctx.clock }), ctx);
    registerOperatorAuditRoute(app, ctx.db, opsApi.auditQuestions);
    // Issue 15: questions' part of a person's data export, read by identity.
    registerExportRoutes(app, ctx.db);
    // Issue 28: the owner's set-up checklist asks whether an answer is public yet.
    registerOnboardingFactsRoute(app, ctx.db);
    registerTrustRoutes(app, parts.trust);
  },
  consumers: ({ commands }) => [recipientsConsumer(questionsVault), tipsConsumer(commands)],
  jobs: ({ commands }, { mailer, clock, log, config }) => ({
    ...questionJobs(commands, { mailer, clock, log }),
    ...nudgeJobs({ clock, log, publicOrigin: config.PUBLIC_ORIGIN, queueMail }),
  }),
};
