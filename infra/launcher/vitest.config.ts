import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      // Browser journeys run on their own (vitest.e2e.config.ts): one browser, one product, one file at a time.
      exclude: [...configDefaults.exclude, 'src/e2e/**'],
    },
  }),
);
