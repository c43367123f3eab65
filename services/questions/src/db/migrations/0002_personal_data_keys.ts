import type { Kysely } from 'kysely';

/** One key per person for the personal fields of question events (ADR 0010). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('personal_data_keys')
    .ifNotExists()
    .addColumn('subject', 'text', (c) => c.primaryKey())
    // null once forgotten: the row stays so nothing new is sealed for a deleted person by mistake.
    .addColumn('key', 'bytea')
    .addColumn('forgotten_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('personal_data_keys').execute();
}
