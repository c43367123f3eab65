import { type Kysely } from 'kysely';

/** Issue 18: an answer hidden by a platform operator keeps the reason its owner sees. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('questions').addColumn('hidden_reason', 'text').execute();
  await db.schema.alterTable('questions').addColumn('hidden_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('questions').dropColumn('hidden_at').execute();
  await db.schema.alterTable('questions').dropColumn('hidden_reason').execute();
}
