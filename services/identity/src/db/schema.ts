import type { ColumnType, Generated, Selectable } from 'kysely';
import type { IdempotencyTables, KitTables, MailQuotaTables, NullableTimestamp, OperatorAuditTables, PersonalDataTables, Timestamp } from '@ques/kit';

/** Identity's tables, declared once (created by `migrations/`); every query runs on `Kysely<IdentityDB>`. */
export interface IdentityDB extends KitTables, PersonalDataTables, IdempotencyTables, OperatorAuditTables, MailQuotaTables {
  users: UsersTable;
  session_families: SessionFamiliesTable;
  refresh_tokens: RefreshTokensTable;
  login_attempts: LoginAttemptsTable;
  avatars: AvatarsTable;
  password_resets: PasswordResetsTable;
  email_verifications: EmailVerificationsTable;
  data_exports: DataExportsTable;
  profile_claims: ProfileClaimsTable;
  handle_history: HandleHistoryTable;
}

/** Every handle a person holds (`released_at` null) or renamed away from (issue 28; the handles projection). */
export interface HandleHistoryTable {
  handle: string;
  user_id: string;
  claimed_at: Timestamp;
  released_at: NullableTimestamp;
}

/** Read model of the user aggregate. */
export interface UsersTable {
  id: string;
  username: string;
  name: string;
  email: string;
  email_verified: ColumnType<boolean, boolean | undefined, boolean>;
  bio: ColumnType<string, string | undefined, string>;
  avatar_url: string;
  brand_color_main: string;
  brand_color_light: string;
  archive_profile: ColumnType<boolean, boolean | undefined, boolean>;
  /** A platform operator (issue 18): granted only server-side. */
  operator: ColumnType<boolean, boolean | undefined, boolean>;
  /** An archive profile's sources note (issue 18). */
  archive_sources: ColumnType<string, string | undefined, string>;
  password_hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type UserRow = Selectable<UsersTable>;

export interface SessionFamiliesTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  family_id: string;
  issued_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  account_key: string;
  attempted_at: Timestamp;
}

export interface AvatarsTable {
  user_id: string;
  version: string;
  size: number;
  content_type: string;
  /** bytea: a Buffer on node-postgres, a Uint8Array on PGlite. */
  bytes: Uint8Array;
  created_at: Timestamp;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/** One verification mail: the hash of its link's token and the address it proves (ADR 0021). */
export interface EmailVerificationsTable {
  id: string;
  token_hash: string;
  user_id: string;
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/** A data export (issue 15, ADR 0030): its state, and the ZIP until it expires. */
export interface DataExportsTable {
  id: string;
  user_id: string;
  status: 'requested' | 'running' | 'ready' | 'failed' | 'expired';
  error: string | null;
  archive: Buffer | null;
  size_bytes: number | null;
  requested_at: Timestamp;
  updated_at: Timestamp;
  ready_at: NullableTimestamp;
  expires_at: NullableTimestamp;
}

/** One claim of an archive profile (issue 18): the read model of the ProfileClaim* events. */
export interface ProfileClaimsTable {
  id: string;
  profile_id: string;
  claimant_id: string;
  /** `email` (an address at the person's domain), `link` (from their official site) or `note`. */
  method: string;
  evidence: string;
  note: string;
  status: 'pending' | 'approved' | 'rejected';
  reason: string | null;
  decided_by: string | null;
  created_at: Timestamp;
  decided_at: NullableTimestamp;
  /** The first of the two operators an approval needs (ADR 0054), until the claim is decided. */
  first_approved_by: string | null;
  first_approved_at: NullableTimestamp;
}
