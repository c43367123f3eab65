import { defineConfig } from 'vitest/config';

/**
 * Browser end-to-end tests: headless Chromium (playwright-core, the system's browser — never a downloaded one)
 * against the built web app served by the BFF on the embedded default. `npm run test:e2e`.
 */
export default defineConfig({
  test: {
    include: ['src/e2e/**/*.e2e.spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Journeys in a file share one product and one browser and run in order; files run one at a time.
    fileParallelism: false,
    maxWorkers: 1,
    sequence: { concurrent: false },
  },
});
