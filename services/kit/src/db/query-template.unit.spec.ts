import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type QueryResult,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { QueryTemplate } from './query-template.js';

interface DB {
  items: { id: string; owner: string; state: string; shown: boolean; created_at: Date; title: string };
}

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
}).withSchema('app');

/** A page of an owner's shown items after a position: constants, named values, a tuple and a limit. */
const page = (q: Kysely<DB>, owner: string, take: number, after: { createdAt: Date; id: string } | null) => {
  let query = q.selectFrom('items').select(['id', 'title', 'created_at']).where('owner', '=', owner).where('state', '=', 'done').where('shown', '=', true);
  if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(take);
};

describe('QueryTemplate', () => {
  it('gives the same SQL and parameters as compiling the builder with the values', () => {
    const first = QueryTemplate.compile<{ owner: string; take: number }, unknown>(['owner', 'take'], (p) => page(db, p.owner, p.take, null));
    const built = page(db, 'ann', 21, null).compile();
    expect(first.with({ owner: 'ann', take: 21 })).toMatchObject({ sql: built.sql, parameters: built.parameters });
    // The builder's plugins applied once, at compile: the schema is in the SQL.
    expect(first.sql).toContain('"app"."items"');

    const next = QueryTemplate.compile<{ owner: string; take: number; createdAt: Date; id: string }, unknown>(
      ['owner', 'take', 'createdAt', 'id'],
      (p) => page(db, p.owner, p.take, { createdAt: p.createdAt, id: p.id }),
    );
    const at = new Date('2026-01-02T03:04:05.000Z');
    const builtNext = page(db, 'bob', 51, { createdAt: at, id: 'x-9' }).compile();
    expect(next.with({ owner: 'bob', take: 51, createdAt: at, id: 'x-9' })).toMatchObject({ sql: builtNext.sql, parameters: builtNext.parameters });
    expect(builtNext.parameters).toEqual(['bob', 'done', true, at, 'x-9', 51]);
  });

  it('fills in each execution’s own values, with a query id of its own, and runs it on the executor given', async () => {
    const template = QueryTemplate.compile<{ owner: string; take: number }, { id: string }>(['owner', 'take'], (p) => page(db, p.owner, p.take, null));
    const seen: CompiledQuery[] = [];
    const executor = {
      executeQuery: async <R>(query: CompiledQuery<R>): Promise<QueryResult<R>> => {
        seen.push(query);
        return { rows: [{ id: `row of ${String(query.parameters[0])}` } as R] };
      },
    };
    const [a, b] = await Promise.all([template.execute(executor, { owner: 'ann', take: 3 }), template.execute(executor, { owner: 'bob', take: 5 })]);
    expect(a).toEqual([{ id: 'row of ann' }]);
    expect(b).toEqual([{ id: 'row of bob' }]);
    expect(seen.map((q) => q.parameters)).toEqual([
      ['ann', 'done', true, 3],
      ['bob', 'done', true, 5],
    ]);
    expect(seen[0]!.queryId.queryId).not.toBe(seen[1]!.queryId.queryId);
  });

  it('refuses a builder that does not send a placeholder as a parameter', () => {
    expect(() =>
      QueryTemplate.compile<{ owner: string; take: number }, unknown>(['owner', 'take'], (p) => page(db, p.owner, 20, null)),
    ).toThrow('take did not become parameters');
  });
});
