import { sql, type Kysely } from 'kysely';

// Frozen (issue 33, ADR 0054): a guest question's network (IPv4 /24 or IPv6 /64, hashed per owner) for the guest
// limit, and an index for counting an owner's guest questions of the last day by any bucket.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('question_origins').addColumn('network_hash', 'text').execute();
  await sql`CREATE INDEX question_origins_guest_day ON question_origins (owner_id, created_at) WHERE guest`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX question_origins_guest_day`.execute(db);
  await db.schema.alterTable('question_origins').dropColumn('network_hash').execute();
}
