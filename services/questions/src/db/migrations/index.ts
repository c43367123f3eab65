import type { Migration } from 'kysely';
import * as m0001 from './0001_questions.js';

/** Explicit, ordered; frozen once merged. */
export const questionsMigrations: Record<string, Migration> = {
  '2026_11_22_0001_questions': m0001,
};
