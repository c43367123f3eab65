import { randomUUID } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import type { Kysely, Selectable } from 'kysely';
import {
  EXPORT_MESSAGES as X,
  EXPORT_TTL_HOURS,
  exportsInternalCalls,
  formatCents,
  ZPaymentsExport,
  ZQuestionsExport,
  type DataExport,
  type ExportQuestion,
  type ExportTip,
  type PaymentsExport,
  type QuestionsExport,
} from '@ques/contracts';
import { conflict, internalCallHeaders, notFound, type Clock, type Logger, type Mailer } from '@ques/kit';
import { exportReadyMail } from '../mails.js';
import type { DataExportsTable, IdentityDB } from '../db/schema.js';
import { toUser, type UsersReadModel } from '../users/read-models/users.js';
import { toCsv } from './csv.js';

/*
 * The data export (issue 15, docs/adr/0030). Identity runs it: it owns the account, its address and its deletion.
 * `request` stores a row (`requested`) and starts the work in this process once the row is committed; the work reads
 * the profile here and the other contexts' parts over their internal calls (questions, payments), zips JSON and CSV
 * with fflate, stores the ZIP in the row (`ready`, 24 h) and mails the account's verified address. A failure stores
 * `failed`; a row left `requested`/`running` by a process that stopped is reported failed after STALE_MS, and the
 * person asks again. Downloads need the owner's session (the BFF forwards only with a valid token; the row must be
 * theirs). Deleting the account deletes its exports in the same transaction, and a run finishing after that stores
 * nothing.
 */

const HOUR_MS = 3_600_000;
const TTL_MS = EXPORT_TTL_HOURS * HOUR_MS;
/** A run takes seconds; one still "under way" after this was interrupted (a restart). */
export const STALE_MS = 10 * 60_000;
const FAILED = 'The export could not be built. Please try again.';
const INTERRUPTED = 'The export was interrupted. Please try again.';

type Row = Selectable<DataExportsTable>;

export interface ExportSources {
  questions(userId: string): Promise<QuestionsExport>;
  payments(userId: string): Promise<PaymentsExport>;
}

/** The other contexts' parts over their internal calls (internal network; `x-internal-token`, ADR 0060). */
export function httpExportSources(opts: { questionsUrl: string; paymentsUrl: string; internalToken: string }): ExportSources {
  const get = async (base: string, path: string) => {
    const headers = { accept: 'application/json', ...internalCallHeaders(opts.internalToken) };
    const res = await fetch(new URL(path, base), { headers, signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    return res.json();
  };
  const at = (template: string, userId: string) => template.replace(':userId', encodeURIComponent(userId));
  return {
    questions: async (userId) => ZQuestionsExport.parse(await get(opts.questionsUrl, at(exportsInternalCalls.questions.path, userId))),
    payments: async (userId) => ZPaymentsExport.parse(await get(opts.paymentsUrl, at(exportsInternalCalls.payments.path, userId))),
  };
}

export interface DataExportsDeps {
  db: Kysely<IdentityDB>;
  users: UsersReadModel;
  sources: ExportSources;
  clock: Clock;
  log: Logger;
  mailer: Mailer | null;
  publicOrigin: string;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export class DataExports {
  /** Runs under way in this process (awaited at shutdown and by tests). */
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: DataExportsDeps) {}

  private isStale(row: Row): boolean {
    return (row.status === 'requested' || row.status === 'running') && this.deps.clock().getTime() - new Date(row.updated_at).getTime() > STALE_MS;
  }

  /** The export as its owner sees it (expiry and interruption applied at read time). */
  toDto(row: Row): DataExport {
    const now = this.deps.clock().getTime();
    let status: DataExport['status'] = row.status;
    let error = row.error;
    if (status === 'ready' && row.expires_at && new Date(row.expires_at).getTime() <= now) status = 'expired';
    if (this.isStale(row)) [status, error] = ['failed', INTERRUPTED];
    return {
      id: row.id,
      status,
      requestedAt: iso(row.requested_at)!,
      readyAt: iso(row.ready_at),
      expiresAt: iso(row.expires_at),
      sizeBytes: row.size_bytes,
      error,
    };
  }

  private columns() {
    return this.deps.db
      .selectFrom('data_exports')
      .select(['id', 'user_id', 'status', 'error', 'size_bytes', 'requested_at', 'updated_at', 'ready_at', 'expires_at'])
      .select((eb) => eb.val<Buffer | null>(null).as('archive'));
  }

  /** `POST /api/users/exports`: a new export, or the one under way. */
  async request(userId: string): Promise<DataExport> {
    const { db, users, clock } = this.deps;
    if (!(await users.byId(userId))) throw notFound('User not found');
    const now = clock();
    const { row, fresh } = await db.transaction().execute(async (trx) => {
      // One request at a time per account, so two clicks start one export.
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      const current = await trx
        .selectFrom('data_exports')
        .select(['id', 'user_id', 'status', 'error', 'size_bytes', 'requested_at', 'updated_at', 'ready_at', 'expires_at'])
        .select((eb) => eb.val<Buffer | null>(null).as('archive'))
        .where('user_id', '=', userId)
        .where('status', 'in', ['requested', 'running'])
        .orderBy('requested_at', 'desc')
        .executeTakeFirst();
      if (current && !this.isStale(current)) return { row: current, fresh: false };
      const inserted: Row = {
        id: randomUUID(),
        user_id: userId,
        status: 'requested',
        error: null,
        archive: null,
        size_bytes: null,
        requested_at: now,
        updated_at: now,
        ready_at: null,
        expires_at: null,
      };
      await trx.insertInto('data_exports').values(inserted).execute();
      return { row: inserted, fresh: true };
    });
    if (fresh) this.start(row.id, userId);
    return this.toDto(row);
  }

  /** `GET /api/users/exports`: the latest export, or null. */
  async latest(userId: string): Promise<DataExport | null> {
    const row = await this.columns().where('user_id', '=', userId).orderBy('requested_at', 'desc').executeTakeFirst();
    return row ? this.toDto(row) : null;
  }

  /** `GET /api/users/exports/:id`: one of the caller's exports; anyone else's is "not found". */
  async get(userId: string, id: string): Promise<DataExport> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound(X.notFound);
    const row = await this.columns().where('id', '=', id.toLowerCase()).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw notFound(X.notFound);
    return this.toDto(row);
  }

  /** `GET /api/users/exports/:id/download`: the ZIP, to its owner, while it is ready and unexpired. */
  async download(userId: string, id: string): Promise<{ bytes: Buffer; filename: string }> {
    const dto = await this.get(userId, id);
    if (dto.status === 'expired') throw notFound(X.expired);
    if (dto.status !== 'ready') throw conflict(X.notReady);
    const row = await this.deps.db.selectFrom('data_exports').select(['archive', 'requested_at']).where('id', '=', dto.id).where('user_id', '=', userId).executeTakeFirst();
    if (!row?.archive) throw notFound(X.expired);
    return { bytes: Buffer.from(row.archive), filename: `ques-export-${dto.requestedAt.slice(0, 10)}.zip` };
  }

  /** Erases an account's exports (account deletion, in its transaction). */
  async forget(trx: Kysely<IdentityDB>, userId: string): Promise<void> {
    await trx.deleteFrom('data_exports').where('user_id', '=', userId).execute();
  }

  /** Resolves when every run this process started has settled. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private start(id: string, userId: string): void {
    const run = this.run(id, userId).catch((err: unknown) => this.deps.log.error({ err, exportId: id }, 'data export failed'));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async run(id: string, userId: string): Promise<void> {
    const { db, clock, log, sources } = this.deps;
    const started = clock();
    // Expired archives are dropped whenever an export runs: the bytes never outlive their 24 hours by much.
    await db
      .updateTable('data_exports')
      .set({ status: 'expired', archive: null, updated_at: started })
      .where('status', '=', 'ready')
      .where('expires_at', '<=', started)
      .execute();
    await db.updateTable('data_exports').set({ status: 'running', updated_at: started }).where('id', '=', id).execute();
    let archive: Buffer;
    try {
      const user = await this.deps.users.byId(userId);
      if (!user) throw new Error('the account is gone');
      const [questions, payments] = await Promise.all([sources.questions(userId), sources.payments(userId)]);
      archive = buildArchive(toUser(user), questions, payments, started);
    } catch (err) {
      log.warn({ err, exportId: id }, 'data export could not be built');
      await db.updateTable('data_exports').set({ status: 'failed', error: FAILED, updated_at: clock() }).where('id', '=', id).execute();
      return;
    }
    const now = clock();
    const expiresAt = new Date(now.getTime() + TTL_MS);
    // Only while the row is there: a deletion of the account meanwhile removed it, and nothing is stored.
    const stored = await db
      .updateTable('data_exports')
      .set({ status: 'ready', archive, size_bytes: archive.length, ready_at: now, expires_at: expiresAt, updated_at: now, error: null })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(stored.numUpdatedRows) !== 1) return;
    log.info({ exportId: id, bytes: archive.length, ms: now.getTime() - started.getTime() }, 'data export ready');
    await this.mail(userId, id, expiresAt).catch((err: unknown) => log.warn({ err, exportId: id }, 'data export mail not sent'));
  }

  private async mail(userId: string, id: string, expiresAt: Date): Promise<void> {
    const { mailer, users, log, publicOrigin } = this.deps;
    const user = await users.byId(userId);
    // Like every notification: only to a proven address (ADR 0021). The settings page shows the state either way.
    if (!user || !user.email_verified) return;
    if (!mailer) return log.warn({ exportId: id }, 'this identity instance sends no e-mail: export mail skipped');
    await mailer.send(
      exportReadyMail({ to: user.email, name: user.name, settingsUrl: `${publicOrigin}/admin/account-settings`, expiresAt, exportId: id }),
    );
  }
}

const money = (cents: number, currency: string) => formatCents(cents, currency);

/** The ZIP (pure): README, everything in one JSON file, and CSV files of the questions and the tips. */
export function buildArchive(
  profile: ReturnType<typeof toUser>,
  questions: QuestionsExport,
  payments: PaymentsExport,
  at: Date,
): Buffer {
  const tips = payments.tips.map((t) => ({
    ...t,
    amount: money(t.amountCents, t.currency),
    fee: money(t.feeCents, t.currency),
    net: money(t.netCents, t.currency),
  }));
  const earnings = payments.earnings.map((e) => ({
    ...e,
    gross: money(e.grossCents, e.currency),
    fee: money(e.feeCents, e.currency),
    net: money(e.netCents, e.currency),
  }));
  const data = {
    exportedAt: at.toISOString(),
    profile,
    questions: questions.questions.map((q) => ({ ...q, tip: q.tipCents ? money(q.tipCents, q.currency ?? 'usd') : null })),
    tips,
    earnings,
  };
  const questionsCsv = toCsv<ExportQuestion>(
    [
      ['id', (q) => q.id],
      ['role', (q) => q.role],
      ['status', (q) => q.status],
      ['question', (q) => q.question],
      ['detail', (q) => q.detail],
      ['answer', (q) => q.answer],
      ['tags', (q) => q.tags],
      ['shown_on_profile', (q) => q.shownOnProfile],
      ['private', (q) => q.private],
      ['asked_by', (q) => q.askedBy],
      ['asked_to', (q) => q.askedTo],
      ['source', (q) => q.source],
      ['tip', (q) => (q.tipCents ? money(q.tipCents, q.currency ?? 'usd') : '')],
      ['tip_status', (q) => q.tipStatus],
      ['created_at', (q) => q.createdAt],
      ['answered_at', (q) => q.answeredAt],
      ['answer_deadline', (q) => q.answerDeadline],
    ],
    questions.questions,
  );
  const tipsCsv = toCsv<ExportTip>(
    [
      ['question_id', (t) => t.questionId],
      ['role', (t) => t.role],
      ['amount', (t) => money(t.amountCents, t.currency)],
      ['fee', (t) => money(t.feeCents, t.currency)],
      ['net', (t) => money(t.netCents, t.currency)],
      ['currency', (t) => t.currency],
      ['status', (t) => t.status],
      ['release_reason', (t) => t.releaseReason],
      ['created_at', (t) => t.createdAt],
      ['captured_at', (t) => t.capturedAt],
    ],
    payments.tips,
  );
  const readme =
    `Your Ques data, exported ${at.toISOString()}.\r\n\r\n` +
    `ques-data.json  everything below in one file (amounts in cents and formatted)\r\n` +
    `profile.json    your account and public profile\r\n` +
    `questions.csv   questions you received, curated and asked, with answers, tags and statuses\r\n` +
    `tips.csv        tips you received (amount, platform fee, net) and tips you paid\r\n\r\n` +
    `Cells that start with = + - @ carry a leading ' so spreadsheets never run them as formulas.\r\n`;
  const mtime = at;
  const zipped = zipSync(
    {
      'README.txt': [strToU8(readme), { mtime }],
      'ques-data.json': [strToU8(JSON.stringify(data, null, 2)), { mtime }],
      'profile.json': [strToU8(JSON.stringify(profile, null, 2)), { mtime }],
      'questions.csv': [strToU8(questionsCsv), { mtime }],
      'tips.csv': [strToU8(tipsCsv), { mtime }],
    },
    { level: 6 },
  );
  return Buffer.from(zipped);
}
