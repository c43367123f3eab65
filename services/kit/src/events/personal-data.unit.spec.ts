import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEmbedded, openEmbeddedPostgres, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import type { EmbeddedPostgres } from '../db/pglite-dialect.js';
import { counterIntegration, counterMigrations, counterProjection, metadata, type CounterDB } from '../test/fixture.js';
import { EventStore } from './event-store.js';
import { erasedValue, PersonalDataVault } from './personal-data.js';

const vault = new PersonalDataVault({
  fields: { Registered: ['name', 'email'] },
  subjectOf: ({ data }) => String(data.personId),
});

describe('personal data vault (crypto-shredding of event streams)', () => {
  let pg: EmbeddedPostgres;
  let database: Database<CounterDB>;
  let store: EventStore<CounterDB>;
  beforeAll(async () => {
    pg = await openEmbeddedPostgres();
    database = connectEmbedded<CounterDB>(pg, 'identity');
    await migrate(database, counterMigrations);
    store = new EventStore({ database, context: 'identity', projections: [counterProjection], toIntegration: counterIntegration, cipher: vault });
  });
  afterAll(async () => pg?.pglite.close());

  const register = (personId: string) =>
    store.append({
      streamId: `person-${personId}`,
      expectedVersion: 0,
      events: [{ type: 'Registered', data: { personId, name: 'Ada Lovelace', email: `${personId}@example.com`, plan: 'pro' } }],
      metadata,
    });

  it('stores personal fields only as ciphertext, yet reads them back and hands them plain to projections', async () => {
    const [recorded] = await register('p1');
    expect(recorded!.data).toMatchObject({ name: 'Ada Lovelace', email: 'p1@example.com' });
    const raw = await database.db.selectFrom('events').select('data').where('stream_id', '=', 'person-p1').executeTakeFirstOrThrow();
    const stored = JSON.stringify(raw.data);
    expect(stored).not.toContain('Ada');
    expect(stored).not.toContain('p1@example.com');
    expect(stored).toContain('"plan":"pro"');
    const [read] = await store.readStream('person-p1');
    expect(read!.data).toEqual({ personId: 'p1', name: 'Ada Lovelace', email: 'p1@example.com', plan: 'pro' });
  });

  it('after forgetting a person, every read yields placeholders and nothing new can be sealed for them', async () => {
    await register('p2');
    await register('p3');
    await database.db.transaction().execute((trx) => vault.forget(trx, 'p2'));
    const all = await store.readAll(0, 100);
    const p2 = all.find((e) => e.streamId === 'person-p2')!;
    expect(p2.data).toEqual({ personId: 'p2', name: erasedValue('p2'), email: erasedValue('p2'), plan: 'pro' });
    expect(all.find((e) => e.streamId === 'person-p3')!.data).toMatchObject({ name: 'Ada Lovelace' });
    await expect(
      store.append({
        streamId: 'person-p2',
        expectedVersion: 1,
        events: [{ type: 'Registered', data: { personId: 'p2', name: 'Again', email: 'again@example.com' } }],
        metadata,
      }),
    ).rejects.toThrow(/forgotten/);
  });

  it('seals each person of a two-person event under their own key, and forgetting one leaves the other readable', async () => {
    const twoPeople = new PersonalDataVault({
      groups: ({ data }) => {
        const d = data as { asker: { userId: string | null }; recipient: { userId: string } };
        return [
          { subject: d.asker.userId, paths: [['asker', 'name'], ['asker', 'email']] },
          { subject: d.recipient.userId, paths: [['recipient', 'name']] },
        ];
      },
    });
    const asked = new EventStore({ database, context: 'identity', projections: [], toIntegration: counterIntegration, cipher: twoPeople });
    const data = (askerId: string | null) => ({
      question: 'Why?',
      asker: { userId: askerId, name: 'Asker Person', email: 'asker@example.com' },
      recipient: { userId: 'owner-1', name: 'Owner Person' },
    });
    await asked.append({ streamId: 'q-1', expectedVersion: 0, events: [{ type: 'Asked', data: data('asker-1') }], metadata });
    await asked.append({ streamId: 'q-2', expectedVersion: 0, events: [{ type: 'Asked', data: data(null) }], metadata });
    const raw = JSON.stringify((await database.db.selectFrom('events').select('data').where('stream_id', '=', 'q-1').executeTakeFirstOrThrow()).data);
    expect(raw).not.toContain('Asker Person');
    expect(raw).not.toContain('Owner Person');
    expect((await asked.readStream('q-1'))[0]!.data).toEqual(data('asker-1'));

    await database.db.transaction().execute((trx) => twoPeople.forget(trx, 'asker-1'));
    expect((await asked.readStream('q-1'))[0]!.data).toEqual({
      question: 'Why?',
      asker: { userId: 'asker-1', name: erasedValue('asker-1'), email: erasedValue('asker-1') },
      recipient: { userId: 'owner-1', name: 'Owner Person' },
    });
    // A guest (no subject) keeps their typed-in name: nobody can ask to forget them through an account.
    expect((await asked.readStream('q-2'))[0]!.data).toEqual(data(null));
  });
});

describe('opening on the worker thread (ADR 0041)', () => {
  let pg: EmbeddedPostgres;
  let database: Database<CounterDB>;
  beforeAll(async () => {
    pg = await openEmbeddedPostgres();
    database = connectEmbedded<CounterDB>(pg, 'identity');
    await migrate(database, counterMigrations);
  });
  afterAll(async () => pg?.pglite.close());

  it('gives the same data as opening inline, placeholders included, and leaves the caller copy alone', async () => {
    const policy = { fields: { Registered: ['name', 'email'] }, subjectOf: ({ data }: { data: Record<string, unknown> }) => String(data.personId) };
    const inline = new PersonalDataVault(policy, { workerFrom: Number.POSITIVE_INFINITY });
    const worker = new PersonalDataVault(policy, { workerFrom: 1 });
    const events: { type: string; data: unknown }[] = [];
    await database.db.transaction().execute(async (trx) => {
      for (const personId of ['w1', 'w2', 'w3']) {
        const data = await inline.seal(trx, { streamId: `person-${personId}`, type: 'Registered', data: { personId, name: `Name ${personId} é`, email: `${personId}@example.com` } });
        events.push({ type: 'Registered', data });
      }
      await inline.forget(trx, 'w2');
    });
    const before = JSON.stringify(events);
    const viaWorker = await worker.open(database.db, events);
    expect(viaWorker).toEqual(await inline.open(database.db, events));
    expect(viaWorker[0]).toEqual({ personId: 'w1', name: 'Name w1 é', email: 'w1@example.com' });
    expect(viaWorker[1]).toMatchObject({ name: erasedValue('w2') });
    expect(JSON.stringify(events)).toBe(before);
    const tampered = events.map((e) => JSON.parse(JSON.stringify(e)) as { type: string; data: { __sealed: { tag: string }[] } });
    tampered[0]!.data.__sealed[0]!.tag = Buffer.alloc(16).toString('base64');
    await expect(worker.open(database.db, tampered)).rejects.toThrow();
  });
});
