import type { ColumnType, Selectable } from 'kysely';
import type { TipStatus } from '@ques/contracts';
import type { IdempotencyTables, KitTables, NullableTimestamp, PersonalDataTables, RevocationTables, Timestamp } from '@ques/kit';
import type { Lifecycle } from '../questions/domain/question.js';

/** Questions' tables, declared once (created by `migrations/`); every query runs on `Kysely<QuestionsDB>`. */
export interface QuestionsDB extends KitTables, PersonalDataTables, IdempotencyTables, RevocationTables {
  questions: QuestionsTable;
  recipients: RecipientsTable;
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
}
export type QuestionRow = Selectable<QuestionsTable>;

/** Identity's users as questions needs them (fed by identity's events). */
export interface RecipientsTable {
  user_id: string;
  username: string;
  name: string;
  email: string;
  /** Identity confirmed the address: only then do guest questions asked with it belong to this account. */
  email_verified: WithDefault<boolean>;
  archive_profile: WithDefault<boolean>;
  deleted: WithDefault<boolean>;
  /** Identity stream version last applied. */
  version: number;
  updated_at: Timestamp;
}
export type RecipientRow = Selectable<RecipientsTable>;
