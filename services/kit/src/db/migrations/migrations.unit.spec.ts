import { expect, it } from 'vitest';
import { migrationSql } from '../../testing/migrations.js';
import { kitIdempotencyMigration, kitMailQuotaMigration, kitMigrations, kitOperatorAuditMigration, kitRevocationsMigration } from './index.js';

it('runs the SQL each kit migration ran the day it was merged (migrations are frozen)', async () => {
  expect(
    await migrationSql({
      ...kitMigrations,
      // Listed by the services under these names.
      '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
      '2026_11_23_0002_kit_revocations': kitRevocationsMigration,
      '2026_11_26_0001_kit_operator_audit': kitOperatorAuditMigration,
      '2026_11_29_0003_kit_mail_quota': kitMailQuotaMigration,
    }),
  ).toMatchSnapshot();
});
