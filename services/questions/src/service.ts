import {
  startService,
  type Mailer,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceRuntime,
} from '@ques/kit';
import { questionsMigrations } from './db/migrations/index.js';
import { tipsConsumer } from './payments/tips-consumer.js';
import { QuestionCommands } from './questions/commands.js';
import { questionsIntegration } from './questions/integration.js';
import { questionsProjection, QuestionsReadModel } from './questions/read-models/questions.js';
import { registerQuestionRoutes } from './questions/routes.js';
import { questionsVault } from './questions/personal-data.js';
import { deletedUsersProjection, recipientsConsumer, RecipientsReadModel } from './recipients/recipients.js';

export interface QuestionsExtra {
  commands: QuestionCommands;
  questions: QuestionsReadModel;
  recipients: RecipientsReadModel;
}

export interface QuestionsOptions {
  /** Sends the notification e-mails (null: this instance never runs the mail jobs, e.g. admin tooling). */
  mailer: Mailer | null;
  /** The web app's origin, for links in e-mails. */
  publicOrigin: string;
  /** Shared secret for `/internal/*` calls (payments); unset: only network placement protects them. */
  internalToken?: string;
}

export function createQuestionsService(options: QuestionsOptions): ServiceDefinition<QuestionsExtra> {
  const commandsOf = (ctx: Parameters<NonNullable<ServiceDefinition<QuestionsExtra>['jobs']>>[0]) =>
    new QuestionCommands({
      store: ctx.store,
      clock: ctx.clock,
      log: ctx.log,
      publicOrigin: options.publicOrigin,
    });
  return {
    name: 'questions',
    context: 'questions',
    migrations: questionsMigrations,
    // Order matters: the erasure of deleted people runs on the row the questions projection just wrote.
    projections: [questionsProjection, deletedUsersProjection],
    toIntegration: questionsIntegration,
    cipher: questionsVault,
    consumes: ['identity', 'payments'],
    consumers: (ctx) => [recipientsConsumer(questionsVault), tipsConsumer(commandsOf(ctx))],
    jobs: (ctx) => commandsOf(ctx).jobs(options.mailer),
    async setup(app, ctx) {
      const commands = commandsOf(ctx);
      const questions = new QuestionsReadModel(ctx.database.db);
      const recipients = new RecipientsReadModel(ctx.database.db);
      await registerQuestionRoutes(app, {
        ctx,
        commands,
        questions,
        recipients,
        internalToken: options.internalToken,
      });
      return { commands, questions, recipients };
    },
  };
}

/** The definition without a mailer, for admin tooling (migrations, rebuilds) that never runs jobs. */
export const questionsService = createQuestionsService({
  mailer: null,
  publicOrigin: 'http://localhost:3000',
});

export type QuestionsDeps = ServiceDeps & QuestionsOptions;

export function startQuestionsService(deps: QuestionsDeps): Promise<ServiceRuntime<QuestionsExtra>> {
  const { mailer, publicOrigin, internalToken, ...serviceDeps } = deps;
  return startService(createQuestionsService({ mailer, publicOrigin, internalToken }), serviceDeps);
}
