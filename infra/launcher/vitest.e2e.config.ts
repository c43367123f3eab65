import { defineConfig } from 'vitest/config';

/**
 * Browser end-to-end tests: headless Chromium (playwright-core, the system's browser — never a downloaded one)
 * against the built web app served by the BFF on the embedded default. `npm run test:e2e`.
 */
export default defineConfig({
  test: {
    include: ['src/e2e/**/*.e2e.spec.ts'],
    testTimeout: 60_000,
    // The first file's beforeAll starts the run's shared product and browser (src/e2e/harness.ts `useShared`).
    hookTimeout: 120_000,
    pool: 'forks',
    // Files run one at a time in ONE worker without isolation (ADR 0044): its module state outlives a file, so the
    // embedded product and Chromium started by the first file serve every file after it. Each file signs up its own
    // people and opens its own browser contexts; journeys in a file run in order.
    isolate: false,
    fileParallelism: false,
    maxWorkers: 1,
    sequence: { concurrent: false },
  },
});
