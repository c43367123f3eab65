import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';
import type { EventEnvelope } from '@ques/contracts';
import type { EventMetadata } from '../events/types.js';

/**
 * The kit's own tables, typed once. Every service's database interface extends `KitTables` (and `PersonalDataTables`
 * when it seals personal data), so `Kysely<ServiceDB>` knows them too. Column types say what a row reads as, what an
 * insert takes and what an update takes (`ColumnType<Select, Insert, Update>`); jsonb columns are written as JSON text.
 */

/**
 * Where queries run: a service's Kysely or one of its transactions. (A `Transaction<DB>` is a `Kysely<DB>`, but
 * TypeScript infers `DB` from it only when the parameter names both.)
 */
export type Executor<DB> = Kysely<DB> | Transaction<DB>;

/** A jsonb column: read back parsed, written as JSON text. */
export type JsonColumn<T> = ColumnType<T, string, string>;
/** A timestamptz column with a database default. */
export type CreatedAt = ColumnType<Date, Date | undefined, never>;
/** A timestamptz column: read as a Date, written as a Date or an ISO string (events carry ISO strings). */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

export interface EventsTable {
  global_position: Generated<number>;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: ColumnType<unknown, string, never>;
  metadata: ColumnType<EventMetadata, string, never>;
  recorded_at: CreatedAt;
}

export interface OutboxTable {
  position: Generated<number>;
  event_id: string;
  subject: string;
  envelope: ColumnType<EventEnvelope, string, never>;
  created_at: CreatedAt;
  published_at: Date | null;
}

export interface ProcessedEventsTable {
  consumer: string;
  event_id: string;
  processed_at: CreatedAt;
}

export interface DeadLettersTable {
  id: Generated<number>;
  consumer: string;
  subject: string;
  event_id: string | null;
  payload: string;
  error: string;
  attempts: number;
  created_at: CreatedAt;
}

export type ScheduledJobStatus = 'pending' | 'done' | 'cancelled' | 'failed';

export interface ScheduledJobsTable {
  id: Generated<number>;
  kind: string;
  key: string;
  due_at: Date;
  payload: JsonColumn<unknown>;
  status: ColumnType<ScheduledJobStatus, ScheduledJobStatus | undefined, ScheduledJobStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: CreatedAt;
  done_at: Date | null;
}

/** Every event-sourced service has these (created by the kit's frozen migrations). */
export interface KitTables {
  events: EventsTable;
  outbox: OutboxTable;
  processed_events: ProcessedEventsTable;
  dead_letters: DeadLettersTable;
  scheduled_jobs: ScheduledJobsTable;
}

export interface PersonalDataKeysTable {
  subject: string;
  /** bytea: a Buffer on node-postgres, a Uint8Array on PGlite; null once forgotten. */
  key: Uint8Array | null;
  forgotten_at: Date | null;
}

/** The vault's table (ADR 0010), in the services that seal personal data. */
export interface PersonalDataTables {
  personal_data_keys: PersonalDataKeysTable;
}

export interface IdempotencyKeysTable {
  caller: string;
  key: string;
  fingerprint: string;
  state: 'in_progress' | 'completed';
  claim_id: string;
  locked_until: Date;
  expires_at: Date;
  response_status: number | null;
  response_headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  response_body: Uint8Array | null;
  created_at: Date;
}

/** The Idempotency-Key table (ADR 0016): every service lists its frozen migration, and runService relies on it. */
export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}

export interface RevokedSessionsTable {
  session_id: string;
  user_id: string;
  reason: string;
  revoked_at: Date;
  recorded_at: CreatedAt;
}

/** Revoked sessions (ADR 0017), in every service that verifies access tokens (all but identity). */
export interface RevocationTables {
  revoked_sessions: RevokedSessionsTable;
}

/** One operator action (issue 18, ADR 0031): the read model of the service's `OperatorActed` events. */
export interface OperatorAuditTable {
  id: string;
  operator_id: string;
  operator_username: string;
  action: string;
  subject: string;
  summary: string;
  detail: ColumnType<Record<string, unknown>, string, string>;
  at: ColumnType<Date, string, string>;
  global_position: ColumnType<string, number, number>;
}

/** The operators' audit (`kitOperatorAuditMigration`), in every service whose routes operators call. */
export interface OperatorAuditTables {
  operator_audit: OperatorAuditTable;
}

/** A day counter of mail (`kitMailQuotaMigration`, ADR 0060): per kind of mail, bucket (address or account), UTC day. */
export interface MailQuotaTable {
  kind: string;
  bucket: string;
  day: string;
  taken: number;
}

/** The mail caps' counters, in every service that mails addresses nobody proved (identity, questions). */
export interface MailQuotaTables {
  mail_quota: MailQuotaTable;
}

/**
 * A service database seen through the kit's tables only. Kysely's database type is invariant, so `Kysely<ServiceDB>`
 * is not assignable to `Kysely<KitTables>` although every table the kit touches is there (`DB extends KitTables`);
 * this is the one place that says so.
 */
export function kitView<DB extends KitTables>(db: Executor<DB>): Kysely<KitTables> {
  return db as unknown as Kysely<KitTables>;
}

/** The same for the personal-data vault's table. */
export function personalDataView<DB extends PersonalDataTables>(
  db: Executor<DB>,
): Kysely<PersonalDataTables> {
  return db as unknown as Kysely<PersonalDataTables>;
}

/** The same for the Idempotency-Key table. */
export function idempotencyView<DB extends IdempotencyTables>(db: Executor<DB>): Kysely<IdempotencyTables> {
  return db as unknown as Kysely<IdempotencyTables>;
}

/**
 * The same for the revoked-sessions table. Not every service has it (identity keeps its own sessions), so its
 * presence is checked when the service starts (`assertRevocationsTable`) rather than by the type.
 */
export function revocationsView<DB>(db: Executor<DB>): Kysely<RevocationTables> {
  return db as unknown as Kysely<RevocationTables>;
}
