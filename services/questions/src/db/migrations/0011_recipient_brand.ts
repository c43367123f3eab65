import type { Kysely } from 'kysely';

/**
 * Issue 28: the status page is in the owner's colours, with their avatar. Questions keeps them from identity's user
 * snapshots (and `AvatarChanged`); existing rows start empty (the page's default colours and avatar) until the
 * owner's next snapshot.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('recipients')
    .addColumn('avatar_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('brand_color_main', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('brand_color_light', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('recipients')
    .dropColumn('avatar_url')
    .dropColumn('brand_color_main')
    .dropColumn('brand_color_light')
    .execute();
}
