import type { ColumnType, Selectable } from 'kysely';
import type { TipStatus } from '@ques/contracts';
import type {
  IdempotencyTables,
  KitTables,
  NullableTimestamp,
  OperatorAuditTables,
  MailQuotaTables,
  PersonalDataTables,
  RevocationTables,
  Timestamp,
} from '@ques/kit';
import type { Lifecycle } from '../questions/domain/question.js';

/** Questions' tables, declared once (created by `migrations/`); every query runs on `Kysely<QuestionsDB>`. */
export interface QuestionsDB
  extends KitTables, PersonalDataTables, IdempotencyTables, RevocationTables, OperatorAuditTables, MailQuotaTables {
  questions: QuestionsTable;
  recipients: RecipientsTable;
  asking_settings: AskingSettingsTable;
  asker_blocks: AskerBlocksTable;
  question_origins: QuestionOriginsTable;
  status_links: StatusLinksTable;
  trust_timings: TrustTimingsTable;
}

/** A column with a database default: optional on insert. */
type WithDefault<T> = ColumnType<T, T | undefined, T>;

/** Read model of the question aggregate (inline projection). */
export interface QuestionsTable {
  id: string;
  lifecycle: Lifecycle;
  is_curated: WithDefault<boolean>;
  question: string;
  detail: WithDefault<string>;
  answer: string | null;
  source: WithDefault<string>;
  /** jsonb array of tags, written as JSON text. */
  tags: ColumnType<string[], string | undefined, string>;
  display_on_profile: WithDefault<boolean>;
  /** The asker chose "Private — only I see the answer" (issue 14): never public. */
  asker_private: WithDefault<boolean>;
  /** The public wording the owner chose (issue 14); null: as asked. The original stays in `question`/`detail`. */
  public_question: ColumnType<string | null, string | null | undefined, string | null>;
  public_detail: ColumnType<string | null, string | null | undefined, string | null>;
  deleted_by_receiver: WithDefault<boolean>;
  to_user_id: string;
  to_username: string;
  recipient_name: string;
  to_user_email: string;
  asker_user_id: string | null;
  from_username: string;
  asked_name: string;
  asked_email: string | null;
  replier_name: string | null;
  /** Cents. */
  tip_amount: WithDefault<number>;
  currency: string | null;
  payment_ref: string | null;
  tip_status: WithDefault<TipStatus>;
  answer_deadline: NullableTimestamp;
  answer_window_expired: WithDefault<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  answered_at: NullableTimestamp;
  /** Stream version last applied. */
  version: number;
  /** Hidden by an operator (issue 18): the reason its owner sees; null when not hidden. */
  hidden_reason: ColumnType<string | null, string | null | undefined, string | null>;
  hidden_at: NullableTimestamp;
}
export type QuestionRow = Selectable<QuestionsTable>;

/**
 * The columns a row of `questions` is read with — every declared one (checked at compile time), and not the stored
 * search document (`search_doc`, issue 14), which only the "already answered?" search reads: lists stay as narrow as
 * the rows they return.
 */
export const QUESTION_COLUMNS = Object.keys({
  id: true,
  lifecycle: true,
  is_curated: true,
  question: true,
  detail: true,
  answer: true,
  source: true,
  tags: true,
  display_on_profile: true,
  asker_private: true,
  public_question: true,
  public_detail: true,
  deleted_by_receiver: true,
  to_user_id: true,
  to_username: true,
  recipient_name: true,
  to_user_email: true,
  asker_user_id: true,
  from_username: true,
  asked_name: true,
  asked_email: true,
  replier_name: true,
  tip_amount: true,
  currency: true,
  payment_ref: true,
  tip_status: true,
  answer_deadline: true,
  answer_window_expired: true,
  created_at: true,
  updated_at: true,
  answered_at: true,
  version: true,
  hidden_reason: true,
  hidden_at: true,
} satisfies Record<keyof QuestionsTable, true>) as (keyof QuestionsTable)[];

/**
 * What the public list reads (ADR 0043): the columns its public view (`toPublicQuestion`) is made of, and the keyset
 * (`created_at`, `id`) of its cursor. Nothing of the asker, the tip or the e-mails leaves the database for a public
 * page.
 */
export const PUBLIC_QUESTION_COLUMNS = [
  'id',
  'lifecycle',
  'is_curated',
  'question',
  'detail',
  'answer',
  'source',
  'tags',
  'display_on_profile',
  'public_question',
  'public_detail',
  'deleted_by_receiver',
  'to_username',
  'recipient_name',
  'replier_name',
  'created_at',
  'updated_at',
  'answered_at',
] as const satisfies readonly (keyof QuestionsTable)[];
export type PublicQuestionRow = Pick<QuestionRow, (typeof PUBLIC_QUESTION_COLUMNS)[number]>;

/** Identity's users as questions needs them (fed by identity's events). */
export interface RecipientsTable {
  user_id: string;
  username: string;
  name: string;
  email: string;
  /** Identity confirmed the address: only then do guest questions asked with it belong to this account. */
  email_verified: WithDefault<boolean>;
  archive_profile: WithDefault<boolean>;
  /** The owner's avatar and brand colours, as identity published them ('' until known; issue 28's status page). */
  avatar_url: WithDefault<string>;
  brand_color_main: WithDefault<string>;
  brand_color_light: WithDefault<string>;
  deleted: WithDefault<boolean>;
  /** Identity stream version last applied. */
  version: number;
  updated_at: Timestamp;
}
export type RecipientRow = Selectable<RecipientsTable>;

/** An owner's asking settings (issue 16); no row: the defaults (taking questions, no filter, nudges on). */
export interface AskingSettingsTable {
  owner_id: string;
  paused_until: NullableTimestamp;
  pause_note: WithDefault<string>;
  pending_cap: number | null;
  /** jsonb array of the blocked words and phrases as typed, written as JSON text. */
  blocked_words: ColumnType<string[], string | undefined, string>;
  built_in_filter: WithDefault<boolean>;
  nudges: WithDefault<boolean>;
  updated_at: Timestamp;
}
export type AskingSettingsRow = Selectable<AskingSettingsTable>;

/** One "Block this asker": whichever of account, e-mail and device the question told (hashes salted with the owner). */
export interface AskerBlocksTable {
  id: string;
  owner_id: string;
  label: string;
  account_id: string | null;
  email_hash: string | null;
  device_hash: string | null;
  source_question_id: string;
  created_at: Timestamp;
}
export type AskerBlockRow = Selectable<AskerBlocksTable>;

/** Where a question came from, hashed per owner (for blocks and the guest limit per device). */
export interface QuestionOriginsTable {
  question_id: string;
  owner_id: string;
  guest: boolean;
  email_hash: string | null;
  device_hash: string | null;
  /** The guest's network prefix (IPv4 /24, IPv6 /64), hashed per owner (ADR 0054); null when unknown. */
  network_hash: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

/** A link to a question's private status page (issue 14); only the token's SHA-256 is stored. */
export interface StatusLinksTable {
  token_hash: string;
  question_id: string;
  /** Mailed to a guest's typed address (opening it confirms the address); false: made for a signed-in asker. */
  guest: boolean;
  confirmed_at: NullableTimestamp;
  answer_mailed: WithDefault<boolean>;
  created_at: Timestamp;
}
export type StatusLinkRow = Selectable<StatusLinksTable>;

/** Issue 15: the times an owner's trust stats are computed from (projection `trust_timings`). */
export interface TrustTimingsTable {
  question_id: string;
  owner_id: string;
  asked_at: NullableTimestamp;
  answered_at: NullableTimestamp;
  curated: WithDefault<boolean>;
  asker_private: WithDefault<boolean>;
  is_public: WithDefault<boolean>;
  window_expired: WithDefault<boolean>;
  withdrawn: WithDefault<boolean>;
  deleted: WithDefault<boolean>;
  version: number;
}
