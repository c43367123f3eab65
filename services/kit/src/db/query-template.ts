import { createQueryId, type Compilable, type CompiledQuery, type QueryResult } from 'kysely';

/** Where a named parameter goes while a template is being built: kysely carries it as an ordinary value. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** The placeholders a template's builder receives, typed as the values they stand for. */
export type Placeholders<P> = { readonly [K in keyof P]: P[K] };

/** One parameter of the compiled SQL: a constant of the query, or the request's value of a named parameter. */
type Slot = { constant: unknown } | { name: string };

/** What executes a compiled query (a `Kysely` instance or a transaction). */
export interface QueryExecutor {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/**
 * A kysely query compiled once, executed many times with parameters (ADR 0043). Building a query with kysely's
 * builder and compiling it to SQL costs more per request than sending it does for a short list query (the builder's
 * immutable nodes, the plugins' transforms, the compiler's walk): a template does that work once, with placeholders
 * where the request's values go, and keeps the SQL text and the positions of its parameters. Each execution only
 * fills in the parameter array. The statement is the builder's own output, so it is the same SQL (and the same plan)
 * as `build(values).compile()` would give.
 *
 * A placeholder must be used as a *value* (a comparison's right side, `limit`, a tuple's members): kysely sends values
 * as parameters. Arithmetic on it or `sql.lit` of it would not survive; the template refuses a builder whose
 * placeholders do not all end up as parameters.
 */
export class QueryTemplate<P extends Record<string, unknown>, O> {
  private constructor(
    private readonly compiled: CompiledQuery<O>,
    private readonly slots: readonly Slot[],
  ) {}

  /** Builds the query once with placeholders for `names` (on the executor that will run it: its plugins apply). */
  static compile<P extends Record<string, unknown>, O>(
    names: readonly (keyof P & string)[],
    build: (params: Placeholders<P>) => Compilable<O>,
  ): QueryTemplate<P, O> {
    const placeholders = Object.fromEntries(names.map((name) => [name, new Placeholder(name)])) as unknown as Placeholders<P>;
    const compiled = build(placeholders).compile();
    const slots: Slot[] = compiled.parameters.map((value) =>
      value instanceof Placeholder ? { name: value.name } : { constant: value },
    );
    const used = new Set(slots.flatMap((slot) => ('name' in slot ? [slot.name] : [])));
    const unused = names.filter((name) => !used.has(name));
    if (unused.length > 0) throw new Error(`query template: ${unused.join(', ')} did not become parameters of the SQL`);
    return new QueryTemplate(compiled, slots);
  }

  /** The SQL of every execution. */
  get sql(): string {
    return this.compiled.sql;
  }

  /** The compiled query with `params` in place of the placeholders. */
  with(params: P): CompiledQuery<O> {
    const parameters = this.slots.map((slot) => ('name' in slot ? params[slot.name] : slot.constant));
    // A fresh id per execution, as the builder gives each compile: plugins key their per-query state by it.
    return { query: this.compiled.query, queryId: createQueryId(), sql: this.compiled.sql, parameters };
  }

  /** Runs it with `params` on `executor`: the rows. */
  async execute(executor: QueryExecutor, params: P): Promise<O[]> {
    return (await executor.executeQuery(this.with(params))).rows;
  }
}
