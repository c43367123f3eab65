import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The chaos short run is part of `npm test` since issue 12's fixes landed (about 70 s on a 2-core
// machine), and so are the recovery drills' short form since issue 33 (about 50 s). CHAOS_IN_TEST=0 leaves both out
// (a quick local run); `npm run chaos -- --short` and `npm run chaos -- drill --short` run them on their own.
const chaosInTest = process.env.CHAOS_IN_TEST !== '0';
if (!chaosInTest)
  console.warn(
    '[chaos] src/chaos.int.spec.ts and src/drill.int.spec.ts (the short runs) are off: CHAOS_IN_TEST=0',
  );

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      exclude: [
        ...configDefaults.exclude,
        ...(chaosInTest ? [] : ['src/chaos.int.spec.ts', 'src/drill.int.spec.ts']),
      ],
      // A run starts a whole topology: one file at a time, on a machine with two cores.
      fileParallelism: false,
      maxWorkers: 1,
    },
  }),
);
