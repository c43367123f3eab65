import type { Kysely } from 'kysely';

/**
 * Issue 12: a guest's questions attach to an account only once its e-mail is verified. Existing rows start unverified;
 * identity's next snapshot of the person (on verification) sets it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('recipients')
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('recipients').dropColumn('email_verified').execute();
}
