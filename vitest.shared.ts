import { defineConfig } from 'vitest/config';

/**
 * The test settings every Node workspace shares (the web app has its own, with jsdom): integration suites start real
 * Postgres/NATS work, so timeouts are generous and files run in at most two forked workers (the machines have 2 cores).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
