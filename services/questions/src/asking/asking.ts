import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  ASKING_MESSAGES,
  isDeviceToken,
  isUuid,
  QUESTION_NOT_FOUND,
  type AskerBlock,
  type AskingSettings,
  type AskingStatus,
  type UpdateAskingSettingsBody,
} from '@ques/contracts';
import { AppError, badRequest, forbidden, notFound, unprocessable, type AccessClaims, type Clock } from '@ques/kit';
import type { AskerBlockRow, AskingSettingsRow, QuestionsDB } from '../db/schema.js';
import type { RecipientsReadModel } from '../recipients/recipients.js';
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

/** A hash of what identifies an asker, meaningful only for this owner. */
export function ownerHash(ownerId: string, kind: 'email' | 'device', value: string): string {
  return createHash('sha256').update(`ques-asking\n${ownerId}\n${kind}\n${value}`).digest('hex');
}

const DAY_MS = 86_400_000;

/** The question about to be sent, as screening needs it. */
export interface Ask {
  toUserId: string;
  question: string;
  detail: string;
  askerUserId: string | null;
  /** A guest's typed e-mail (a signed-in asker's comes from their account). */
  guestEmail: string | null;
  /** The device token as the client sent it (malformed ones are ignored). */
  device: string | null | undefined;
}

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

  /** A signed-in asker's e-mail, once identity verified it (an unproven address blocks nobody else). */
  private async verifiedEmail(userId: string): Promise<string | null> {
    const row = await this.deps.recipients.byId(userId);
    return row?.email_verified && row.email ? row.email.toLowerCase() : null;
  }

  /** The asker's hashes for this owner: their account's verified e-mail or a guest's typed one, their device. */
  private async identifiers(ownerId: string, ask: Ask): Promise<{ emailHash: string | null; deviceHash: string | null }> {
    const email = ask.askerUserId
      ? await this.verifiedEmail(ask.askerUserId)
      : ask.guestEmail?.trim().toLowerCase() || null;
    return {
      emailHash: email ? ownerHash(ownerId, 'email', email) : null,
      deviceHash: isDeviceToken(ask.device) ? ownerHash(ownerId, 'device', ask.device) : null,
    };
  }

  /** Pause, cap, blocks, word filters and the guest limit, for the owner `ask.toUserId` only. */
  async screen(ask: Ask): Promise<Screening> {
    const { db } = this.deps;
    if (!isUuid(ask.toUserId)) return { ok: true }; // the ask rules answer for a missing recipient
    const ownerId = ask.toUserId.toLowerCase();
    const owner = await this.deps.recipients.byId(ownerId);
    if (!owner) return { ok: true };
    const now = this.deps.clock();
    const [row, ids] = await Promise.all([this.row(ownerId), this.identifiers(ownerId, ask)]);
    const { emailHash, deviceHash } = ids;
    const match = await db
      .selectFrom('asker_blocks')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where((eb) =>
        eb.or([
          ...(ask.askerUserId ? [eb('account_id', '=', ask.askerUserId)] : []),
          ...(emailHash ? [eb('email_hash', '=', emailHash)] : []),
          ...(deviceHash ? [eb('device_hash', '=', deviceHash)] : []),
          eb.val(false),
        ]),
      )
      .executeTakeFirst();
    let guestAsksFromDevice: number | null = null;
    if (!ask.askerUserId && deviceHash) {
      const { n } = await db
        .selectFrom('question_origins as o')
        .innerJoin('questions as q', 'q.id', 'o.question_id')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('o.owner_id', '=', ownerId)
        .where('o.device_hash', '=', deviceHash)
        .where('o.guest', '=', true)
        .where('o.created_at', '>', new Date(now.getTime() - DAY_MS))
        .executeTakeFirstOrThrow();
      guestAsksFromDevice = Number(n);
    }
    return screen({
      now,
      ownerName: owner.name || owner.username,
      pausedUntil: row?.paused_until ?? null,
      pauseNote: row?.pause_note ?? '',
      pendingCap: row?.pending_cap ?? null,
      openQuestions: row?.pending_cap != null ? await this.openQuestions(ownerId) : 0,
      blocked: !!match,
      filter: this.filterOf(row),
      question: ask.question,
      detail: ask.detail,
      guestAsksFromDevice,
    });
  }

  /** Screens, and refuses in the asker's words (422, or 429 for the guest limit). */
  async screenOrRefuse(ask: Ask): Promise<void> {
    const result = await this.screen(ask);
    if (!result.ok) throw new AppError(result.status === 429 ? 'TOO_MANY_REQUESTS' : 'UNPROCESSABLE', result.message);
  }

  /** Remembers, hashed, where a question that passed screening came from (for "Block this asker" and the guest limit). */
  async recordOrigin(questionId: string, ask: Ask): Promise<void> {
    if (!isUuid(ask.toUserId) || !isUuid(questionId)) return;
    const ownerId = ask.toUserId.toLowerCase();
    const { emailHash, deviceHash } = await this.identifiers(ownerId, ask);
    await this.deps.db
      .insertInto('question_origins')
      .values({
        question_id: questionId,
        owner_id: ownerId,
        guest: !ask.askerUserId,
        email_hash: emailHash,
        device_hash: deviceHash,
        created_at: this.deps.clock(),
      })
      .onConflict((oc) => oc.column('question_id').doNothing())
      .execute();
  }

  /** `POST /api/questions/:id/block`: the recipient blocks whoever asked it. */
  async block(owner: AccessClaims, rawId: string): Promise<AskerBlock> {
    const { db } = this.deps;
    if (!isUuid(rawId)) throw notFound(QUESTION_NOT_FOUND);
    const questionId = rawId.toLowerCase();
    const q = await db.selectFrom('questions').selectAll().where('id', '=', questionId).executeTakeFirst();
    if (!q || q.lifecycle === 'awaiting_payment') throw notFound(QUESTION_NOT_FOUND);
    if (q.to_user_id !== owner.sub) {
      // Its asker may see it, and learns only that blocking is not theirs to do; anyone else: 404.
      if (q.asker_user_id === owner.sub) throw forbidden(ASKING_MESSAGES.notYours);
      throw notFound(QUESTION_NOT_FOUND);
    }
    if (q.is_curated || q.asker_user_id === owner.sub) throw unprocessable(ASKING_MESSAGES.cannotBlockSelf);
    const origin = await db
      .selectFrom('question_origins')
      .select(['device_hash'])
      .where('question_id', '=', questionId)
      .where('owner_id', '=', owner.sub)
      .executeTakeFirst();
    // A guest's typed address; a signed-in asker's account address only when verified (the account blocks them anyway).
    const email = q.asker_user_id ? await this.verifiedEmail(q.asker_user_id) : q.asked_email?.toLowerCase() || null;
    const values = {
      id: randomUUID(),
      owner_id: owner.sub,
      label: q.asked_name || q.from_username,
      account_id: q.asker_user_id,
      email_hash: email ? ownerHash(owner.sub, 'email', email) : null,
      device_hash: origin?.device_hash ?? null,
      source_question_id: questionId,
      created_at: this.deps.clock(),
    };
    await db
      .insertInto('asker_blocks')
      .values(values)
      .onConflict((oc) => oc.columns(['owner_id', 'source_question_id']).doNothing())
      .execute();
    const row = await db
      .selectFrom('asker_blocks')
      .selectAll()
      .where('owner_id', '=', owner.sub)
      .where('source_question_id', '=', questionId)
      .executeTakeFirstOrThrow();
    return blockView(row);
  }

  /** `GET /api/asking/blocks`: the caller's own blocks only. */
  async blocks(owner: AccessClaims): Promise<AskerBlock[]> {
    const rows = await this.deps.db
      .selectFrom('asker_blocks')
      .selectAll()
      .where('owner_id', '=', owner.sub)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(blockView);
  }

  /** `DELETE /api/asking/blocks/:id`: another owner's block is not found. */
  async lift(owner: AccessClaims, rawId: string): Promise<void> {
    if (!isUuid(rawId)) throw notFound(ASKING_MESSAGES.blockNotFound);
    const result = await this.deps.db
      .deleteFrom('asker_blocks')
      .where('id', '=', rawId.toLowerCase())
      .where('owner_id', '=', owner.sub)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(ASKING_MESSAGES.blockNotFound);
  }
}

function blockView(row: AskerBlockRow): AskerBlock {
  return {
    id: row.id,
    label: row.label,
    byAccount: row.account_id !== null,
    byEmail: row.email_hash !== null,
    byDevice: row.device_hash !== null,
    createdAt: row.created_at.toISOString(),
  };
}

