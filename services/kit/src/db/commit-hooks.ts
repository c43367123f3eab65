import type {
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  QueryCompiler,
  TransactionSettings,
} from 'kysely';

/**
 * "After this transaction commits, run that": what a read cache needs to drop its entries the moment an append of
 * this process commits (ADR 0040). Kysely has no such hook, so the kit's dialects are wrapped: the driver fires a
 * connection's callbacks once its COMMIT returned and forgets them on ROLLBACK.
 */
const hooks = new WeakMap<DatabaseConnection, (() => void)[]>();
const inTransaction = new WeakSet<DatabaseConnection>();

class CommitHookDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction(connection, settings);
    inTransaction.add(connection);
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.commitTransaction(connection);
    } finally {
      inTransaction.delete(connection);
    }
    const callbacks = hooks.get(connection);
    hooks.delete(connection);
    for (const callback of callbacks ?? []) callback();
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    inTransaction.delete(connection);
    hooks.delete(connection);
    await this.inner.rollbackTransaction(connection);
  }
  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint!(connection, name, compile);
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint!(connection, name, compile);
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint!(connection, name, compile);
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** `dialect` whose transactions run the callbacks `afterCommit` registered on them. */
export function withCommitHooks(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new CommitHookDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

/**
 * Runs `callback` once the transaction `trx` runs in has committed (never if it rolls back). Outside a transaction
 * (what `trx` ran has committed already) it runs now. Needs a Kysely of the kit (`connectPostgres`,
 * `connectEmbedded`): on another, `callback` runs now — too early for a read cache — so the kit's connections are
 * the only ones services use.
 */
export async function afterCommit(trx: Kysely<any>, callback: () => void): Promise<void> {
  const connection = await trx.getExecutor().provideConnection(async (c) => c);
  if (!inTransaction.has(connection)) {
    callback();
    return;
  }
  const list = hooks.get(connection);
  if (list) list.push(callback);
  else hooks.set(connection, [callback]);
}
