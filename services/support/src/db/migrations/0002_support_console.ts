import { sql, type Kysely } from 'kysely';

/** Issue 18: the operator console's read models (requests, abuse reports) and the requesters' addresses. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_requests')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('username', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('answered_at', 'timestamptz')
    .addColumn('answer_note', 'text')
    .addColumn('answered_by', 'text')
    .addColumn('answer_mailed_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX support_requests_status ON support_requests (status, requested_at DESC)`.execute(db);
  await sql`CREATE INDEX support_requests_user ON support_requests (user_id)`.execute(db);

  await db.schema
    .createTable('abuse_reports')
    .addColumn('report_id', 'text', (c) => c.primaryKey())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('target_username', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('user_id', 'text')
    .addColumn('username', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reported_at', 'timestamptz', (c) => c.notNull())
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolution_note', 'text')
    .addColumn('resolved_by', 'text')
    .execute();
  await sql`CREATE INDEX abuse_reports_status ON abuse_reports (status, reported_at DESC)`.execute(db);

  // Identity's users as support needs them: where to mail an answer (a verified address only).
  await db.schema
    .createTable('support_contacts')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'boolean', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('support_contacts').execute();
  await db.schema.dropTable('abuse_reports').execute();
  await db.schema.dropTable('support_requests').execute();
}
