import { expect, it } from 'vitest';
import { migrationSql } from '@ques/kit/testing';
import { questionsMigrations } from './index.js';

it('runs the SQL each migration ran the day it was merged (migrations are frozen)', async () => {
  expect(await migrationSql(questionsMigrations)).toMatchSnapshot();
});
