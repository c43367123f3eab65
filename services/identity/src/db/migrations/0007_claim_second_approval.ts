import type { Kysely } from 'kysely';

// Frozen (issue 33, ADR 0054): a claim's first approval, kept until a second operator completes (or rejects) it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('profile_claims')
    .addColumn('first_approved_by', 'text')
    .addColumn('first_approved_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profile_claims').dropColumn('first_approved_at').dropColumn('first_approved_by').execute();
}
