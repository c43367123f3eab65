/**
 * The Postgres half of a rebuild with nothing of Node's in it (ADR 0050): the rebuilt rows of `tables` copied out of
 * `schema` and `COPY`ed back into fresh tables of the rebuild's shadow shape (keys and generated columns in place,
 * the other indexes built after the rows, as the rebuild does), on one connection. Its CPU per event is the least any
 * rebuild of these read models pays Postgres for its writes on this machine.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

const SCRATCH = 'bench_write_floor';
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface WriteFloor {
  /** Makes the tables and writes the rows back: the part to measure. */
  write(): Promise<void>;
  drop(): Promise<void>;
}

/** Copies each table's rows out into memory (not part of the floor) and returns the write to measure. */
export async function prepareWriteFloor(client: pg.Client, schema: string, tables: readonly string[]): Promise<WriteFloor> {
  const copies: { table: string; columns: string[]; chunks: Buffer[]; indexes: string[]; keys: string[] }[] = [];
  // Keys and unique indexes go on before the rows (as in the rebuild's shadow tables), the others after.
  await client.query(`DROP SCHEMA IF EXISTS ${SCRATCH} CASCADE`);
  await client.query(`CREATE SCHEMA ${SCRATCH}`);
  for (const table of tables) {
    const live = `${quote(schema)}.${quote(table)}`;
    const columns = (
      await client.query<{ name: string }>(
        `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
        [live],
      )
    ).rows.map((r) => quote(r.name));
    const chunks: Buffer[] = [];
    await pipeline(
      client.query(copyTo(`COPY (SELECT ${columns.join(', ')} FROM ${live}) TO STDOUT`)),
      new Writable({ write(chunk: Buffer, _encoding, done) { chunks.push(chunk); done(); } }),
    );
    await client.query(
      `CREATE TABLE ${SCRATCH}.${quote(table)} (LIKE ${live} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING IDENTITY INCLUDING STORAGE)`,
    );
    const keys = (
      await client.query<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('p', 'u', 'x')`, [live])
    ).rows.map((r) => `ALTER TABLE ${SCRATCH}.${quote(table)} ADD ${r.def}`);
    const indexes = (
      await client.query<{ def: string; unique: boolean }>(
        `SELECT pg_get_indexdef(i.indexrelid) AS def, i.indisunique AS unique FROM pg_index i WHERE i.indrelid = $1::regclass
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
        [live],
      )
    ).rows;
    const onScratch = (def: string) => def.replace(/ INDEX \S+ ON (ONLY )?\S+ USING /, ` INDEX ON ${SCRATCH}.${quote(table)} USING `);
    keys.push(...indexes.filter((i) => i.unique).map((i) => onScratch(i.def)));
    copies.push({ table, columns, chunks, keys, indexes: indexes.filter((i) => !i.unique).map((i) => onScratch(i.def)) });
  }
  return {
    async write() {
      for (const copy of copies) for (const key of copy.keys) await client.query(key);
      await client.query('BEGIN');
      await client.query('SET LOCAL synchronous_commit = off');
      for (const { table, columns, chunks } of copies) {
        await pipeline(Readable.from(chunks), client.query(copyFrom(`COPY ${SCRATCH}.${quote(table)} (${columns.join(', ')}) FROM STDIN`)));
      }
      await client.query('COMMIT');
      for (const copy of copies) for (const index of copy.indexes) await client.query(index);
    },
    async drop() {
      await client.query(`DROP SCHEMA IF EXISTS ${SCRATCH} CASCADE`);
    },
  };
}
