import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The chaos short run joins `npm test` once issue 12's fixes have landed; until then it runs only when asked for
// (CHAOS_IN_TEST=1), because on today's main it fails by design: it reports the defects the others are fixing.
const chaosInTest = process.env.CHAOS_IN_TEST === '1';
if (!chaosInTest)
  console.warn(
    '[chaos] src/chaos.int.spec.ts (the short chaos run) is off: set CHAOS_IN_TEST=1 to include it',
  );

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      exclude: [...configDefaults.exclude, ...(chaosInTest ? [] : ['src/chaos.int.spec.ts'])],
      // A run starts a whole topology: one file at a time, on a machine with two cores.
      fileParallelism: false,
      maxWorkers: 1,
    },
  }),
);
