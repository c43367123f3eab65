import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.spec.ts'],
    // Browser journeys run on their own (vitest.e2e.config.ts): one browser, one product, one file at a time.
    exclude: [...configDefaults.exclude, 'src/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
