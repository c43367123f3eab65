import type { Kysely } from 'kysely';
import { createPersonalDataKeysTable } from '@ques/kit';

/** One key per person for the personal fields of question events (ADR 0010). */
export async function up(db: Kysely<any>): Promise<void> {
  await createPersonalDataKeysTable(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('personal_data_keys').execute();
}
