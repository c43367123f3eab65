import { sql, type Kysely } from 'kysely';
import { ASKING_MESSAGES, isUuid, type AskingSettings, type AskingStatus, type UpdateAskingSettingsBody } from '@ques/contracts';
import { AppError, badRequest, notFound, QueryTemplate, type AccessClaims, type Clock } from '@ques/kit';
import { QUESTION_COLUMNS, type AskingSettingsRow, type QuestionRow, type QuestionsDB, type RecipientRow } from '../db/schema.js';
import type { RecipientsReadModel } from '../recipients/recipients.js';
import { guestAsksSql, guestHashes, typedEmailOf } from './guest-limit.js';
import { originInsert, type OriginParams } from './origin.js';
import { ownerHash } from './owner-hash.js';
import { isPaused, screen, type Screening } from './domain/screening.js';
import { BUILT_IN_WORDS, compileEntry, compileFilter, type CompiledEntry } from './domain/word-filter.js';

/*
 * Owner control over asking (issue 16): settings, blocks, the public status, and the screening every question goes
 * through before anything is stored or any card is held (a free ask here, a tipped one when payments calls
 * `POST /internal/questions/screen` before it creates the checkout).
 *
 * Privacy: e-mails and device tokens of askers are kept only as SHA-256 hashes salted with the owner's id, so a hash
 * says nothing outside that owner's blocks, and two owners' hashes of one device differ.
 */

export { ownerHash };

const DAY_MS = 86_400_000;

/** The question about to be sent, as screening needs it. */
export interface Ask {
  toUserId: string;
  question: string;
  detail: string;
  askerUserId: string | null;
  /** A guest's typed e-mail (a signed-in asker's comes from their account). */
  guestEmail: string | null;
  /** The device token as the client sent it (a missing or malformed one counts in the no-device bucket). */
  device: string | null | undefined;
  /** The client's address from the trusted proxy chain (`request.ip`), for the guest limit's network bucket. */
  network?: string | null | undefined;
}

/**
 * What one ask needs to know about its owner, read in one statement (ADR 0042): the owner's account, a signed-in
 * asker's account, the owner's settings, and the screening counts (block match, the device's guest asks today, the
 * open questions when a cap is set). Undefined: no such owner, or a deleted one.
 */
export interface OwnerRead {
  owner: RecipientRow;
  /** The signed-in asker's account here (null for a guest, or an account not known here yet). */
  asker: RecipientRow | null;
  settings: AskingSettingsRow | undefined;
  blocked: boolean;
  /** A guest's asks to this owner in the last day, in the fullest of its buckets (ADR 0054); null when signed in. */
  guestAsksToday: number | null;
  openQuestions: number;
  /** The asker's hashes for this owner (kept with the question's origin). */
  emailHash: string | null;
  deviceHash: string | null;
  networkHash: string | null;
}

const EMAIL_HASH_SQL = (owner: string, email: string) =>
  // ownerHash(owner, 'email', email) in SQL: the same SHA-256 of the same text.
  `encode(sha256(convert_to('ques-asking' || chr(10) || ${owner} || chr(10) || 'email' || chr(10) || lower(${email}), 'UTF8')), 'hex')`;

const defaults = (): AskingSettings => ({
  pausedUntil: null,
  pauseNote: '',
  pendingCap: null,
  blockedWords: [],
  builtInFilter: false,
  nudges: true,
});

export class Asking {
  /** Compiled filters by owner and settings version (the settings row's updated_at). */
  private readonly compiled = new Map<string, { stamp: number; filter: CompiledEntry[] }>();
  private originAndRead: QueryTemplate<OriginParams, QuestionRow> | undefined;
  private readonly builtIn = compileFilter(BUILT_IN_WORDS);

  constructor(
    private readonly deps: { db: Kysely<QuestionsDB>; recipients: RecipientsReadModel; clock: Clock },
  ) {}

  private row(ownerId: string): Promise<AskingSettingsRow | undefined> {
    return this.deps.db.selectFrom('asking_settings').selectAll().where('owner_id', '=', ownerId).executeTakeFirst();
  }

  private view(row: AskingSettingsRow | undefined): AskingSettings {
    if (!row) return defaults();
    const now = this.deps.clock();
    return {
      pausedUntil: isPaused(row.paused_until, now) ? row.paused_until.toISOString() : null,
      pauseNote: row.pause_note,
      pendingCap: row.pending_cap,
      blockedWords: row.blocked_words,
      builtInFilter: row.built_in_filter,
      nudges: row.nudges,
    };
  }

  /** `GET /api/asking/settings`. */
  async settings(owner: AccessClaims): Promise<AskingSettings> {
    return this.view(await this.row(owner.sub));
  }

  /** Whether the owner wants reminder e-mails about held tips (default yes). */
  async nudgesOn(ownerId: string): Promise<boolean> {
    return (await this.row(ownerId))?.nudges ?? true;
  }

  /** `PUT /api/asking/settings`: what is given changes; the schema bounded the lists (500 × 100). */
  async update(owner: AccessClaims, body: UpdateAskingSettingsBody): Promise<AskingSettings> {
    const current = this.view(await this.row(owner.sub));
    let blockedWords = current.blockedWords;
    if (body.blockedWords !== undefined) {
      const seen = new Set<string>();
      blockedWords = [];
      for (const raw of body.blockedWords) {
        const entry = raw.trim().replace(/\s+/g, ' ');
        if (!entry) continue;
        if (!compileEntry(entry)) throw badRequest(ASKING_MESSAGES.filterEmpty);
        const key = entry.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        blockedWords.push(entry);
      }
    }
    const next: AskingSettings = {
      pausedUntil: body.pausedUntil === undefined ? current.pausedUntil : body.pausedUntil && new Date(body.pausedUntil).toISOString(),
      pauseNote: body.pauseNote === undefined ? current.pauseNote : (body.pauseNote ?? '').trim(),
      pendingCap: body.pendingCap === undefined ? current.pendingCap : body.pendingCap,
      blockedWords,
      builtInFilter: body.builtInFilter ?? current.builtInFilter,
      nudges: body.nudges ?? current.nudges,
    };
    const values = {
      paused_until: next.pausedUntil,
      pause_note: next.pauseNote,
      pending_cap: next.pendingCap,
      blocked_words: JSON.stringify(next.blockedWords),
      built_in_filter: next.builtInFilter,
      nudges: next.nudges,
      updated_at: this.deps.clock(),
    };
    await this.deps.db
      .insertInto('asking_settings')
      .values({ owner_id: owner.sub, ...values })
      .onConflict((oc) => oc.column('owner_id').doUpdateSet(values))
      .execute();
    return this.view(await this.row(owner.sub));
  }

  /** `GET /api/asking/status/:username`: what the public page shows in place of the ask button. */
  async status(username: string): Promise<AskingStatus> {
    const owner = await this.deps.db
      .selectFrom('recipients')
      .select(['user_id'])
      .where('username', '=', username.trim().toLowerCase())
      .where('deleted', '=', false)
      .executeTakeFirst();
    if (!owner) throw notFound('User not found');
    const row = await this.row(owner.user_id);
    const now = this.deps.clock();
    if (row && isPaused(row.paused_until, now))
      return { accepting: false, reason: 'paused', pausedUntil: row.paused_until.toISOString(), note: row.pause_note };
    if (row?.pending_cap != null && (await this.openQuestions(owner.user_id)) >= row.pending_cap)
      return { accepting: false, reason: 'cap', pausedUntil: null, note: '' };
    return { accepting: true, reason: null, pausedUntil: null, note: '' };
  }

  private async openQuestions(ownerId: string): Promise<number> {
    const { n } = await this.deps.db
      .selectFrom('questions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('to_user_id', '=', ownerId)
      .where('lifecycle', '=', 'pending')
      .where('deleted_by_receiver', '=', false)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  private filterOf(row: AskingSettingsRow | undefined): CompiledEntry[] {
    if (!row) return [];
    const stamp = row.updated_at.getTime();
    let cached = this.compiled.get(row.owner_id);
    if (!cached || cached.stamp !== stamp) {
      cached = { stamp, filter: compileFilter(row.blocked_words) };
      this.compiled.set(row.owner_id, cached);
    }
    return row.built_in_filter ? [...cached.filter, ...this.builtIn] : cached.filter;
  }

  /** The asker's hashes for this owner: their account's verified e-mail or a guest's typed one, their device. */
  private async identifiers(ownerId: string, ask: Ask): Promise<{ emailHash: string | null; deviceHash: string | null; networkHash: string | null }> {
    const email = ask.askerUserId ? await this.deps.recipients.verifiedEmail(ask.askerUserId) : typedEmailOf(ask);
    return { emailHash: email ? ownerHash(ownerId, 'email', email) : null, ...guestHashes(ownerId, ask) };
  }

  /**
   * The owner of `ask` and every fact screening needs, in one statement (ADR 0042). A signed-in asker's verified
   * address is hashed in SQL for the block match, so it is not read first.
   */
  async ownerRead(ask: Ask): Promise<OwnerRead | undefined> {
    if (!isUuid(ask.toUserId)) return undefined;
    const ownerId = ask.toUserId.toLowerCase();
    const now = this.deps.clock();
    const askerId = ask.askerUserId;
    const typedEmail = askerId ? null : typedEmailOf(ask);
    const emailHashTyped = typedEmail ? ownerHash(ownerId, 'email', typedEmail) : null;
    // Blocks made before ADR 0054 hold the hash of the address only lower-cased.
    const rawEmail = askerId ? null : ask.guestEmail?.trim().toLowerCase() || null;
    const emailHashRaw = rawEmail ? ownerHash(ownerId, 'email', rawEmail) : null;
    const { deviceHash, networkHash } = guestHashes(ownerId, ask);
    const { rows } = await sql<
      RecipientRow & {
        a_user_id: string | null;
        a_username: string | null;
        a_name: string | null;
        a_email: string | null;
        a_email_verified: boolean | null;
        s_owner_id: string | null;
        s_paused_until: Date | null;
        s_pause_note: string | null;
        s_pending_cap: number | null;
        s_blocked_words: string[] | null;
        s_built_in_filter: boolean | null;
        s_nudges: boolean | null;
        s_updated_at: Date | null;
        blocked: boolean;
        guest_asks: number | null;
        open_questions: number | null;
      }
    >`
      SELECT r.*,
        a.user_id AS a_user_id, a.username AS a_username, a.name AS a_name, a.email AS a_email,
        a.email_verified AS a_email_verified,
        s.owner_id AS s_owner_id, s.paused_until AS s_paused_until, s.pause_note AS s_pause_note,
        s.pending_cap AS s_pending_cap, s.blocked_words AS s_blocked_words, s.built_in_filter AS s_built_in_filter,
        s.nudges AS s_nudges, s.updated_at AS s_updated_at,
        EXISTS (SELECT 1 FROM asker_blocks b WHERE b.owner_id = r.user_id AND (
          b.account_id = ${askerId} OR b.email_hash = ${emailHashTyped} OR b.email_hash = ${emailHashRaw}
          OR b.device_hash = ${deviceHash}
          OR (a.email_verified AND a.email <> '' AND b.email_hash = ${sql.raw(EMAIL_HASH_SQL('r.user_id', 'a.email'))})
        )) AS blocked,
        CASE WHEN ${askerId === null} THEN (${guestAsksSql({ deviceHash, emailHash: emailHashTyped, networkHash, since: new Date(now.getTime() - DAY_MS) })}) END AS guest_asks,
        CASE WHEN s.pending_cap IS NOT NULL THEN (
          SELECT count(*) FROM questions q
           WHERE q.to_user_id = r.user_id AND q.lifecycle = 'pending' AND NOT q.deleted_by_receiver) END AS open_questions
      FROM recipients r
      LEFT JOIN asking_settings s ON s.owner_id = r.user_id
      LEFT JOIN recipients a ON a.user_id = ${askerId} AND NOT a.deleted
      WHERE r.user_id = ${ownerId} AND NOT r.deleted`.execute(this.deps.db);
    const row = rows[0];
    if (!row) return undefined;
    const { a_user_id, a_username, a_name, a_email, a_email_verified, blocked, guest_asks, open_questions } = row;
    const { s_owner_id, s_paused_until, s_pause_note, s_pending_cap, s_blocked_words, s_built_in_filter, s_nudges, s_updated_at } = row;
    const owner: RecipientRow = {
      user_id: row.user_id,
      username: row.username,
      name: row.name,
      email: row.email,
      email_verified: row.email_verified,
      archive_profile: row.archive_profile,
      avatar_url: row.avatar_url,
      brand_color_main: row.brand_color_main,
      brand_color_light: row.brand_color_light,
      deleted: row.deleted,
      version: row.version,
      updated_at: row.updated_at,
    };
    const asker: RecipientRow | null =
      a_user_id === null
        ? null
        : {
            ...owner,
            user_id: a_user_id,
            username: a_username ?? '',
            name: a_name ?? '',
            email: a_email ?? '',
            email_verified: !!a_email_verified,
            // Not read for the asker (only the owner's look is ever shown).
            avatar_url: '',
            brand_color_main: '',
            brand_color_light: '',
          };
    const verifiedAskerEmail = asker?.email_verified && asker.email ? asker.email.toLowerCase() : null;
    return {
      owner,
      asker,
      settings:
        s_owner_id === null
          ? undefined
          : {
              owner_id: s_owner_id,
              paused_until: s_paused_until,
              pause_note: s_pause_note ?? '',
              pending_cap: s_pending_cap,
              blocked_words: s_blocked_words ?? [],
              built_in_filter: !!s_built_in_filter,
              nudges: s_nudges ?? true,
              updated_at: s_updated_at!,
            },
      blocked,
      guestAsksToday: guest_asks === null ? null : Number(guest_asks),
      openQuestions: Number(open_questions ?? 0),
      emailHash: askerId ? (verifiedAskerEmail ? ownerHash(ownerId, 'email', verifiedAskerEmail) : null) : emailHashTyped,
      deviceHash,
      networkHash,
    };
  }

  /** Pause, cap, blocks, word filters and the guest limit, on the facts `ownerRead` gave (no statement). */
  screenRead(ask: Ask, read: OwnerRead): Screening {
    const { owner, settings: row } = read;
    return screen({
      now: this.deps.clock(),
      ownerName: owner.name || owner.username,
      pausedUntil: row?.paused_until ?? null,
      pauseNote: row?.pause_note ?? '',
      pendingCap: row?.pending_cap ?? null,
      openQuestions: read.openQuestions,
      blocked: read.blocked,
      filter: this.filterOf(row),
      question: ask.question,
      detail: ask.detail,
      guestAsksToday: read.guestAsksToday,
    });
  }

  /** Pause, cap, blocks, word filters and the guest limit, for the owner `ask.toUserId` only. */
  async screen(ask: Ask): Promise<Screening> {
    const read = await this.ownerRead(ask);
    // The ask rules answer for a missing recipient.
    return read ? this.screenRead(ask, read) : { ok: true };
  }

  /** Refuses in the asker's words (422, or 429 for the guest limit). */
  refuseUnless(result: Screening): void {
    if (!result.ok) throw new AppError(result.status === 429 ? 'TOO_MANY_REQUESTS' : 'UNPROCESSABLE', result.message);
  }

  /** Screens, and refuses in the asker's words (422, or 429 for the guest limit). */
  async screenOrRefuse(ask: Ask): Promise<void> {
    this.refuseUnless(await this.screen(ask));
  }

  /** Remembers, hashed, where a question that passed screening came from (for "Block this asker" and the guest limit). */
  async recordOrigin(questionId: string, ask: Ask): Promise<void> {
    if (!isUuid(ask.toUserId) || !isUuid(questionId)) return;
    const ownerId = ask.toUserId.toLowerCase();
    const { emailHash, deviceHash, networkHash } = await this.identifiers(ownerId, ask);
    const guest = !ask.askerUserId;
    await originInsert(this.deps.db, { questionId, ownerId, guest, emailHash, deviceHash, networkHash: guest ? networkHash : null, createdAt: this.deps.clock() }).execute();
  }

  /**
   * In the ask's own transaction, in one statement (ADR 0042): records the question's origin (hashes from `read`) and
   * reads back the question's row, which the response is made of.
   */
  async recordOriginAndRead(
    trx: Kysely<QuestionsDB>,
    questionId: string,
    ask: Ask,
    read: OwnerRead,
  ): Promise<QuestionRow | undefined> {
    // Compiled once (ADR 0049): every ask sends it, and kysely built its 34 columns anew each time.
    this.originAndRead ??= QueryTemplate.compile<OriginParams, QuestionRow>(
      ['questionId', 'ownerId', 'guest', 'emailHash', 'deviceHash', 'networkHash', 'createdAt'],
      (p) =>
        this.deps.db
          .with('origin', (qc) => originInsert(qc, p))
          .selectFrom('questions')
          .select(QUESTION_COLUMNS)
          .where('id', '=', p.questionId),
    );
    const [row] = await this.originAndRead.execute(trx, {
      questionId,
      ownerId: read.owner.user_id,
      guest: !ask.askerUserId,
      emailHash: read.emailHash,
      deviceHash: read.deviceHash,
      networkHash: ask.askerUserId ? null : read.networkHash,
      createdAt: this.deps.clock(),
    });
    return row;
  }
}
