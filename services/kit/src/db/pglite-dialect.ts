import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * PGlite is one Postgres session. Every service of the embedded process shares it, so a connection is a lease on
 * that session: the mutex serializes leases (a transaction owns the session until it ends) and each lease first
 * points `search_path` at its service's schema, which keeps unqualified SQL identical to the real-Postgres mode.
 */
export class EmbeddedPostgres {
  private tail: Promise<void> = Promise.resolve();
  private currentSchema: string | null = null;

  constructor(readonly pglite: PGlite) {}

  /** Runs `fn` with exclusive use of the session, search_path set to `schema`. */
  async lease<T>(schema: string, fn: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      if (this.currentSchema !== schema) {
        await this.pglite.exec(`SET search_path TO "${schema}", public`);
        this.currentSchema = schema;
      }
      return await fn();
    } finally {
      release();
    }
  }

  /** Acquire without a callback (for Kysely's driver). */
  async acquire(schema: string): Promise<() => void> {
    let releaseLease!: () => void;
    let leased!: () => void;
    const ready = new Promise<void>((resolve) => (leased = resolve));
    void this.lease(
      schema,
      () =>
        new Promise<void>((resolve) => {
          releaseLease = resolve;
          leased();
        }),
    );
    await ready;
    return releaseLease;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(query.sql, [...query.parameters]);
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && affected !== null ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streamQuery is not supported on the embedded database');
  }
}

class PGliteDriver implements Driver {
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();

  constructor(
    private readonly embedded: EmbeddedPostgres,
    private readonly schema: string,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.embedded.acquire(this.schema);
    const connection = new PGliteConnection(this.embedded.pglite);
    this.releases.set(connection, release);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : '';
    await connection.executeQuery(CompiledQuery.raw(`BEGIN${level}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.releases.get(connection)?.();
    this.releases.delete(connection);
  }

  async destroy(): Promise<void> {}
}

export class PGliteDialect implements Dialect {
  constructor(
    private readonly embedded: EmbeddedPostgres,
    private readonly schema: string,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.embedded, this.schema);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
