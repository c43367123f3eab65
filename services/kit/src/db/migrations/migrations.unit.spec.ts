import { expect, it } from 'vitest';
import { migrationSql } from '../../testing/migrations.js';
import { kitMigrations } from './index.js';

it('runs the SQL each kit migration ran the day it was merged (migrations are frozen)', async () => {
  expect(await migrationSql(kitMigrations)).toMatchSnapshot();
});
