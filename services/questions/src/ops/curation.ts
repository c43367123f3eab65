import {
  checkArchiveCuratedEdit,
  checkArchiveCurateDraft,
  curationOpsApi,
  OPS_MESSAGES,
  type Checked,
  type Question,
} from '@ques/contracts';
import {
  badRequest,
  idempotentId,
  metadataFrom,
  notFound,
  recordOperatorAct,
  routeFor,
  unprocessable,
  type Clock,
  type EventMetadata,
  type EventStore,
  type HttpApp,
  type OperatorActor,
  type ServiceContext,
} from '@ques/kit';
import type { QuestionsConfig } from '../config.js';
import type { QuestionRow, QuestionsDB } from '../db/schema.js';
import type { QuestionActions } from '../questions/actions.js';
import type { QuestionCommands } from '../questions/commands.js';
import type { Actor } from '../questions/domain/access.js';
import type { QuestionCommand } from '../questions/domain/decide.js';
import { Parties } from '../questions/parties.js';
import type { QuestionsReadModel } from '../questions/read-models/questions.js';
import type { RecipientsReadModel } from '../recipients/recipients.js';
import { toQuestion } from '../questions/views.js';

export interface ArchiveCurationDeps {
  store: EventStore<QuestionsDB>;
  commands: QuestionCommands;
  actions: QuestionActions;
  questions: QuestionsReadModel;
  recipients: RecipientsReadModel;
  clock: Clock;
}

/** The most curated Q&A the console lists for one archive. */
const LIST_LIMIT = 200;

function valid<T>(checked: Checked<T>): T {
  if (!checked.ok) throw badRequest(checked.message);
  return checked.value;
}

/**
 * Curated Q&A of archive profiles from the operator console (issue 18). Nobody owns an archive, so the operator acts
 * for it: the same commands as an owner's curate form and admin list (`CurateQuestion` through
 * `QuestionActions.curateFor`, `EditAnswer`, `ChangeVisibility`, `DeleteByReceiver`), with the archive as the actor,
 * each recorded with its operator (`recordOperatorAct`) in the command's transaction. Only archive profiles: an owned
 * profile curates its own (422).
 */
export class ArchiveCuration {
  private readonly parties: Parties;

  constructor(private readonly deps: ArchiveCurationDeps) {
    this.parties = new Parties(deps.recipients);
  }

  async list(archiveId: string): Promise<Question[]> {
    const archive = await this.parties.archive(archiveId);
    const page = await this.deps.questions.curated(archive.userId, LIST_LIMIT);
    return page.rows.map((row) => toQuestion(row, 'recipient'));
  }

  async curate(op: OperatorActor, archiveId: string, body: unknown, questionId: string, metadata: EventMetadata): Promise<Question> {
    const archive = await this.parties.archive(archiveId);
    const draft = valid(checkArchiveCurateDraft(body));
    return this.deps.actions.curateFor(archive, draft, questionId, metadata, (trx) =>
      recordOperatorAct(this.deps.store, trx, op, {
        action: 'curated.create',
        subject: `question:${questionId}`,
        summary: `Added a curated answer to the archive profile @${archive.username}`,
        detail: { archiveId: archive.userId },
      }, metadata),
    );
  }

  async edit(op: OperatorActor, id: string, body: unknown, metadata: EventMetadata): Promise<Question> {
    const { row, actor } = await this.curated(id);
    const edit = valid(checkArchiveCuratedEdit(body));
    const now = this.deps.clock();
    return this.run(op, row, { type: 'EditAnswer', data: { actor, ...edit, now } }, 'curated.edit', 'Edited a curated answer of', metadata);
  }

  async show(op: OperatorActor, id: string, displayOnProfile: boolean, metadata: EventMetadata): Promise<Question> {
    const { row, actor } = await this.curated(id);
    return this.run(
      op,
      row,
      { type: 'ChangeVisibility', data: { actor, displayOnProfile, now: this.deps.clock() } },
      displayOnProfile ? 'curated.show' : 'curated.hide',
      displayOnProfile ? 'Showed a curated answer on' : 'Hid a curated answer from',
      metadata,
    );
  }

  async delete(op: OperatorActor, id: string, metadata: EventMetadata): Promise<{ questionId: string; deleted: true }> {
    const { row, actor } = await this.curated(id);
    await this.run(op, row, { type: 'DeleteByReceiver', data: { actor, now: this.deps.clock() } }, 'curated.delete', 'Deleted a curated answer of', metadata);
    return { questionId: row.id, deleted: true };
  }

  /** A curated Q&A (not deleted) of an archive profile, and the archive as the actor of the owner's commands. */
  private async curated(id: string): Promise<{ row: QuestionRow; actor: Actor }> {
    const row = await this.deps.questions.byId(id.toLowerCase());
    if (!row || !row.is_curated || row.deleted_by_receiver) throw notFound(OPS_MESSAGES.noSuchCurated);
    const owner = await this.deps.recipients.byId(row.to_user_id);
    if (!owner) throw notFound(OPS_MESSAGES.noSuchCurated);
    if (!owner.archive_profile) throw unprocessable(OPS_MESSAGES.notAnArchive);
    return { row, actor: { userId: row.to_user_id, verifiedEmail: null } };
  }

  private async run(
    op: OperatorActor,
    row: QuestionRow,
    command: QuestionCommand,
    action: string,
    what: string,
    metadata: EventMetadata,
  ): Promise<Question> {
    await this.deps.commands.handle(row.id, command, metadata, {
      alongside: async (trx, result) => {
        if (result.events.length === 0) return;
        await recordOperatorAct(this.deps.store, trx, op, {
          action,
          subject: `question:${row.id}`,
          summary: `${what} the archive profile @${row.to_username}`,
          detail: { archiveId: row.to_user_id },
        }, metadata);
      },
    });
    const after = await this.deps.questions.byId(row.id);
    if (!after) throw notFound(OPS_MESSAGES.noSuchCurated);
    return toQuestion(after, 'recipient');
  }
}

/** The console's curated-Q&A calls (`curationOpsApi`): operators only (`auth: 'operator'`, and the guard again here). */
export function registerCurationOpsRoutes(
  app: HttpApp,
  curation: ArchiveCuration,
  ctx: ServiceContext<QuestionsDB, QuestionsConfig>,
): void {
  const operator = async (request: Parameters<typeof ctx.operatorGuard>[0]): Promise<OperatorActor> => {
    const who = await ctx.operatorGuard(request);
    return { sub: who.userId, username: who.username };
  };
  routeFor(app, curationOpsApi.listCurated, async (request) => {
    await operator(request);
    return curation.list(request.params.id);
  });
  routeFor(app, curationOpsApi.curate, async (request, reply) => {
    const op = await operator(request);
    // The id comes from the Idempotency-Key (random without one): a retried submit names the question it created.
    const question = await curation.curate(op, request.params.id, request.body, idempotentId(request), metadataFrom(request, op.sub));
    return reply.status(201).send(question);
  });
  routeFor(app, curationOpsApi.editCurated, async (request) => {
    const op = await operator(request);
    return curation.edit(op, request.params.id, request.body, metadataFrom(request, op.sub));
  });
  routeFor(app, curationOpsApi.showCurated, async (request) => {
    const op = await operator(request);
    return curation.show(op, request.params.id, request.body.displayOnProfile, metadataFrom(request, op.sub));
  });
  routeFor(app, curationOpsApi.deleteCurated, async (request) => {
    const op = await operator(request);
    return curation.delete(op, request.params.id, metadataFrom(request, op.sub));
  });
}
