import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, openEmbeddedPostgres } from '@ques/kit';
import { backupEmbedded, embeddedDifferences, embeddedFigures, restoreEmbedded } from './backup.js';
import { startEmbedded } from './embedded.js';
import { call, signup } from './test/identity-journey.js';
import { seedTippedAnswer } from './test/tipped-answer.js';

/**
 * The embedded backup and restore (issue 33, ADR 0059): a data folder with an answered $5 tip is copied while the
 * product is stopped, the folder is destroyed, the copy is restored into a fresh one with every read model rebuilt,
 * and every table, the answer and the money come back — and the product serves them again.
 */
describe('embedded backup and restore', () => {
  const root = mkdtempSync(join(tmpdir(), 'ques-backup-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('brings every table, the answer and the money back into a fresh data folder', async () => {
    const dataDir = join(root, 'data');
    const product = await startEmbedded({
      port: 0,
      dataDir,
      logLevel: 'silent',
      authRateLimitPerMinute: 1000,
    });
    let owner: Awaited<ReturnType<typeof signup>>;
    let id: string;
    try {
      await expect(backupEmbedded({ dataDir, out: join(root, 'refused') })).rejects.toThrow(/stop it first/);
      owner = await signup(product.url, 'Bea Backup', 'bea.backup@example.com');
      id = await seedTippedAnswer(product.url, owner, 'Will this survive a restore?', 'It will.');
    } finally {
      await product.stop();
    }
    const manifest = await backupEmbedded({ dataDir, out: join(root, 'backup') });
    expect(manifest.figures).toMatchObject({
      answers: 1,
      tips: 1,
      ledgerCents: 500,
      feeCents: 50,
      netCents: 450,
    });

    rmSync(dataDir, { recursive: true, force: true });
    const restored = join(root, 'restored');
    const log = createLogger('restore-test', 'silent');
    const { differences, rebuilt } = await restoreEmbedded({
      from: join(root, 'backup'),
      dataDir: restored,
      log,
    });
    expect(differences).toEqual([]);
    expect(rebuilt.payments).toBeGreaterThan(0);
    await expect(restoreEmbedded({ from: join(root, 'backup'), dataDir: restored, log })).rejects.toThrow(
      /fresh folder/,
    );

    // The product starts on the restored folder and serves the answer and its tip (the keys came back too: the
    // owner's token still verifies).
    const again = await startEmbedded({
      port: 0,
      dataDir: restored,
      logLevel: 'silent',
      authRateLimitPerMinute: 1000,
    });
    try {
      const list = await call(again.url, 'GET', '/api/questions?role=receiver', undefined, owner!.token);
      expect(
        (list.body as { _id: string; tipStatus: string; answer: string }[]).find((q) => q._id === id!),
      ).toMatchObject({
        tipStatus: 'captured',
        answer: 'It will.',
      });
    } finally {
      await again.stop();
    }

    // The control: the comparison sees a read model that did not come back.
    const pg = await openEmbeddedPostgres(join(restored, 'pg'));
    try {
      await pg.pglite.exec('DELETE FROM payments.ledger');
      expect(embeddedDifferences(manifest.figures, await embeddedFigures(pg))).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^payments\.ledger/),
          'ledgerCents: 500 before, 0 after',
        ]),
      );
    } finally {
      await pg.pglite.close();
    }
  }, 120_000);
});
