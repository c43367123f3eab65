import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Screens are lazy chunks that Vite transforms on first import; on a loaded machine that alone can pass the default
// 1 s of `findBy…`/`waitFor`. Waiting longer changes nothing for a passing test.
configure({ asyncUtilTimeout: 5000 });

// Vitest runs without globals, so Testing Library cannot register its own clean-up.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
