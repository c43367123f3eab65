import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterFixture, type KitFixture } from '../test/fixture.js';
import { infraGate, postgresServerUrl, statementsOf } from '../testing/index.js';
import { PersonalDataVault } from './personal-data.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

describe.runIf(run)('personal-data keys: get-or-create in one statement (ADR 0042)', () => {
  let fx: KitFixture;
  const vault = new PersonalDataVault({ fields: { Named: ['name'] }, subjectOf: ({ data }) => String(data.userId) });
  const keyOf = async (subject: string) =>
    (await fx.database.db.selectFrom('personal_data_keys' as never).select('key' as never).where('subject' as never, '=', subject as never).executeTakeFirst()) as
      | { key: Buffer | null }
      | undefined;

  beforeAll(async () => {
    fx = await counterFixture();
  });
  afterAll(() => fx?.close());

  it('makes a key on first use and finds it after, one statement each', async () => {
    const subject = randomUUID();
    const made = await statementsOf(() => vault.keyFor(fx.database.db, subject));
    const found = await statementsOf(() => vault.keyFor(fx.database.db, subject));
    expect(made.statements).toHaveLength(1);
    expect(found.statements).toHaveLength(1);
    expect(made.result).toBeInstanceOf(Buffer);
    expect(found.result!.equals(made.result!)).toBe(true);
    expect((await keyOf(subject))!.key!.equals(made.result!)).toBe(true);
  });

  it('gives concurrent first uses one key, also when one waits on the other\'s uncommitted insert', async () => {
    const subject = randomUUID();
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstMade!: () => void;
    const madeInFirst = new Promise<void>((resolve) => (firstMade = resolve));
    const first = fx.database.db.transaction().execute(async (trx) => {
      const key = await vault.keyFor(trx, subject);
      firstMade();
      await firstHolds; // uncommitted: the second insert waits on it, with a snapshot taken before it commits
      return key;
    });
    await madeInFirst;
    const second = statementsOf(() => fx.database.db.transaction().execute((trx) => vault.keyFor(trx, subject)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    releaseFirst();
    const [a, b] = await Promise.all([first, second]);
    expect(b.result!.equals(a!)).toBe(true);
    // begin, the one statement (which finds nothing: the row is newer than its snapshot), the second read, commit.
    expect(b.statements).toHaveLength(4);
    // Many at once: one key.
    const other = randomUUID();
    const keys = await Promise.all(
      Array.from({ length: 8 }, () => fx.database.db.transaction().execute((trx) => vault.keyFor(trx, other))),
    );
    for (const key of keys) expect(key!.equals(keys[0]!)).toBe(true);
  });

  it('keeps a forgotten subject keyless: nothing is made again, and sealing for them is refused', async () => {
    const subject = randomUUID();
    await vault.keyFor(fx.database.db, subject);
    await vault.forget(fx.database.db, subject);
    const after = await statementsOf(() => vault.keyFor(fx.database.db, subject));
    expect(after.result).toBeNull();
    expect(after.statements).toHaveLength(1);
    expect((await keyOf(subject))!.key).toBeNull();
    const never = randomUUID();
    await vault.forget(fx.database.db, never); // forgotten before any key was made
    expect(await vault.keyFor(fx.database.db, never)).toBeNull();
    await expect(
      vault.seal(fx.database.db, { streamId: 's', type: 'Named', data: { userId: never, name: 'N' } }),
    ).rejects.toThrow(/forgotten/);
  });
});
