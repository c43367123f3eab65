import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { ensureSchema, type Database } from './database.js';
import { kitMigrations } from './migrations/index.js';

export { kitIdempotencyMigration, kitMailQuotaMigration, kitMigrations, kitOperatorAuditMigration, kitRevocationsMigration } from './migrations/index.js';

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations() {
    return this.migrations;
  }
}

/** Creates the schema, then applies kit + service migrations in name order. Safe to run from several instances. */
export async function migrate<DB>(
  database: Database<DB>,
  serviceMigrations: Record<string, Migration>,
): Promise<void> {
  await ensureSchema(database);
  const migrator = new Migrator({
    db: database.db,
    provider: new StaticProvider({ ...kitMigrations, ...serviceMigrations }),
    migrationTableSchema: database.schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(
      `Migration ${failed?.migrationName ?? '?'} failed in schema ${database.schema}: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      {
        cause: error,
      },
    );
  }
}
