import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Migration,
} from 'kysely';

/**
 * The SQL each migration runs, by name and in order, compiled without a database. A workspace's
 * `migrations.unit.spec.ts` compares it with a committed snapshot: migrations are frozen once merged, so any change
 * to what an old migration does — an edit, or live code it called changing under it — fails that test.
 */
export async function migrationSql(migrations: Record<string, Migration>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of Object.keys(migrations).sort()) {
    const statements: string[] = [];
    const db = new Kysely<unknown>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (kysely) => new PostgresIntrospector(kysely),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
      log: (event) => {
        if (event.level !== 'query') return;
        const { sql, parameters } = event.query;
        statements.push(parameters.length > 0 ? `${sql} -- ${JSON.stringify(parameters)}` : sql);
      },
    });
    await migrations[name]!.up(db);
    out[name] = statements;
  }
  return out;
}
