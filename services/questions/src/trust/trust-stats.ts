import { sql, type Kysely } from 'kysely';
import {
  TRUST_STATS_DAYS,
  TRUST_STATS_MIN_ANSWERED,
  TRUST_WINDOW_DAYS,
  trustApi,
  type TrustFigures,
  type TrustStats,
} from '@ques/contracts';
import {
  batchedApply,
  eventHandlers,
  insertRowsAsJson,
  notFound,
  requireUser,
  routeFor,
  type Clock,
  type HttpApp,
  type Projection,
  type RecordedEvent,
} from '@ques/kit';
import type { QuestionsDB } from '../db/schema.js';
import type { QuestionEvent } from '../questions/domain/question.js';

/*
 * Issue 15, public trust stats (docs/adr/0029). The projection `trust_timings` keeps, per question an owner received
 * or curated, when it was asked and answered (the events' own `askedAt`/`answeredAt`, so a replay gives the same
 * figures) and what became of it. The figures are computed when read, over the questions asked in the last 90 days:
 * - median time to answer: of the answered ones (private ones included);
 * - answered within the 5-day window: answered in time / decided (answered, withdrawn excluded, or their window over
 *   — expired, deleted unanswered, or 5 days old); a question still inside its window is not counted yet;
 * - public answers: answers published in the period and still public (curated ones included).
 */

const DAY_MS = 86_400_000;

function rowOf(recorded: RecordedEvent): { key: string; row: Record<string, unknown> } | null {
  const e = { type: recorded.type, data: recorded.data } as QuestionEvent;
  if (e.type === 'QuestionAsked')
    return timing(recorded, e.data, { asked_at: e.data.askedAt, answered_at: null, curated: false, asker_private: e.data.askerPrivate ?? false, is_public: false });
  if (e.type === 'QuestionCurated')
    return timing(recorded, e.data, { asked_at: null, answered_at: e.data.curatedAt, curated: true, asker_private: false, is_public: e.data.displayOnProfile });
  return null;
}

/** A question's first row: who it is for and when, with nothing yet withdrawn, expired or deleted. */
function timing(
  recorded: RecordedEvent,
  d: { questionId: string; recipient: { userId: string } },
  first: { asked_at: string | null; answered_at: string | null; curated: boolean; asker_private: boolean; is_public: boolean },
) {
  return {
    key: d.questionId,
    row: { question_id: d.questionId, owner_id: d.recipient.userId, ...first, window_expired: false, withdrawn: false, deleted: false, version: recorded.streamVersion },
  };
}

const insert = (trx: Kysely<QuestionsDB>, rows: Record<string, unknown>[]) =>
  insertRowsAsJson(trx, 'trust_timings', rows, sql`ON CONFLICT (question_id) DO NOTHING`);

/** The row of a question whose stream is past `version` (a replayed event changes nothing). */
const older = (trx: Kysely<QuestionsDB>, questionId: string, version: number) =>
  trx.updateTable('trust_timings').where('question_id', '=', questionId).where('version', '<', version);

const addRow = (trx: Kysely<QuestionsDB>, _data: unknown, recorded: RecordedEvent) =>
  insert(trx, [rowOf(recorded)!.row]);

/** One handler per event the stats read (the kit's `eventHandlers`: the handled types are the relevant ones). */
const { relevant, apply } = eventHandlers<QuestionsDB, QuestionEvent>({
  QuestionAsked: addRow,
  QuestionCurated: addRow,
  AnswerPosted: (trx, d, { streamVersion: version }) =>
    older(trx, d.questionId, version)
      .set((eb) => ({
        answered_at: sql`coalesce(${eb.ref('answered_at')}, ${d.answeredAt}::timestamptz)`,
        is_public: sql<boolean>`${d.displayOnProfile} AND NOT ${eb.ref('asker_private')} AND NOT ${eb.ref('deleted')}`,
        version,
      }))
      .execute(),
  QuestionVisibilityChanged: (trx, d, { streamVersion: version }) =>
    older(trx, d.questionId, version)
      .set((eb) => ({
        is_public: sql<boolean>`${d.displayOnProfile} AND ${eb.ref('answered_at')} IS NOT NULL AND NOT ${eb.ref('asker_private')} AND NOT ${eb.ref('deleted')}`,
        version,
      }))
      .execute(),
  QuestionDeletedByReceiver: (trx, d, { streamVersion: version }) =>
    older(trx, d.questionId, version).set({ deleted: true, is_public: false, version }).execute(),
  QuestionWithdrawn: (trx, d, { streamVersion: version }) =>
    older(trx, d.questionId, version).set({ withdrawn: true, is_public: false, version }).execute(),
  AnswerWindowExpired: (trx, d, { streamVersion: version }) =>
    older(trx, d.questionId, version).set({ window_expired: true, version }).execute(),
  // Issue 18: an answer Ques hid is no longer one of the owner's public answers (it still counts as answered).
  AnswerHiddenByOperator: (trx, d, { streamVersion: version }) =>
    older(trx, d.questionId, version).set({ is_public: false, version }).execute(),
});

/** Inline projection `trust_timings` (rebuilt with the others; a rebuild inserts runs of new questions in one statement). */
export const trustTimingsProjection: Projection<QuestionsDB> = {
  name: 'trust_timings',
  tables: ['trust_timings'],
  // A question's timing row is made and changed only by its own stream's events (ADR 0041).
  streamLocal: true,
  apply,
  applyBatch: batchedApply<QuestionsDB>({
    relevant,
    rowOf,
    insert,
    apply,
    // A question's first event makes its row: in a rebuild it goes in by COPY (ADR 0039).
    newRows: { table: 'trust_timings', createsRow: (event) => event.streamVersion === 1 },
  }),
};

/** The median of numbers (the mean of the middle two for an even count); null for none. Pure. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export class TrustStatsReadModel {
  constructor(private readonly deps: { db: Kysely<QuestionsDB>; clock: Clock }) {}

  /** The owner's figures now. */
  async figures(ownerId: string): Promise<TrustFigures> {
    const now = this.deps.clock().getTime();
    const since = new Date(now - TRUST_STATS_DAYS * DAY_MS);
    const windowMs = TRUST_WINDOW_DAYS * DAY_MS;
    const asked = await this.deps.db
      .selectFrom('trust_timings')
      .select(['asked_at', 'answered_at', 'window_expired', 'deleted'])
      .where('owner_id', '=', ownerId)
      .where('curated', '=', false)
      .where('withdrawn', '=', false)
      .where('asked_at', '>=', since)
      .execute();
    const durations: number[] = [];
    let decided = 0;
    let inTime = 0;
    for (const row of asked) {
      const askedAt = new Date(row.asked_at!).getTime();
      if (row.answered_at) {
        const took = Math.max(0, new Date(row.answered_at).getTime() - askedAt);
        durations.push(took);
        decided++;
        if (took <= windowMs) inTime++;
      } else if (row.window_expired || row.deleted || now - askedAt >= windowMs) decided++;
    }
    const { n } = await this.deps.db
      .selectFrom('trust_timings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('owner_id', '=', ownerId)
      .where('is_public', '=', true)
      .where('answered_at', '>=', since)
      .executeTakeFirstOrThrow();
    const mid = median(durations);
    return {
      answered: durations.length,
      medianAnswerSeconds: mid === null ? null : Math.round(mid / 1000),
      answeredWithinWindow: decided ? inTime / decided : null,
      publicAnswers: Number(n),
    };
  }

  /** What anyone may see: the figures once established, else only that the owner is new. */
  async forPublic(username: string): Promise<TrustStats> {
    const owner = await this.deps.db
      .selectFrom('recipients')
      .select('user_id')
      .where('username', '=', username.trim().toLowerCase())
      .where('deleted', '=', false)
      .executeTakeFirst();
    if (!owner) throw notFound('User not found');
    const stats = await this.forOwner(owner.user_id);
    return stats.established ? stats : { ...stats, figures: null };
  }

  async forOwner(ownerId: string): Promise<TrustStats> {
    const figures = await this.figures(ownerId);
    return {
      periodDays: TRUST_STATS_DAYS,
      windowDays: TRUST_WINDOW_DAYS,
      established: figures.answered >= TRUST_STATS_MIN_ANSWERED,
      figures,
    };
  }
}

export function registerTrustRoutes(app: HttpApp, stats: TrustStatsReadModel): void {
  routeFor(app, trustApi.publicTrustStats, async (request) => stats.forPublic(request.params.username));
  routeFor(app, trustApi.myTrustStats, async (request) => stats.forOwner((await requireUser(request)).sub));
}
