// Shared, type-aware lint rules for every workspace. Each workspace runs `eslint .` from its own folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Web app layering (bulletproof-react's rule): a feature folder (web/src/features/X) imports only its own files,
 * `lib/` and `components/` (and `test/` in tests) — never another feature, never `app/`. Shared code moves down into
 * lib/ or components/; the app layer (`app/`) composes features. Import paths are relative, so the rule is written
 * per folder depth: from features/X/a.ts `../Y/…` leaves the feature, from features/X/sub/a.ts it takes `../../Y/…`.
 * Lazy `import()` counts too.
 */
const FEATURE_BOUNDARY = 'Features do not import each other or app/: move shared code to lib/ or components/, or compose in app/.';
const featureBoundaries = [0, 1, 2].map((depth) => {
  const up = '\\.\\./'.repeat(depth + 1); // from the file's folder up to web/src/features/X/..
  // `../Y` (another feature) or `../../app` / `../../features/…` (out of features/ into app/, or back in by name).
  const leaves = `^${up}(?!\\.\\./)|^${up}\\.\\./(?:app|features)(?:/|$)`;
  return {
    files: [`web/src/features/*/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: leaves, message: FEATURE_BOUNDARY }] }],
      'no-restricted-syntax': [
        'error',
        { selector: `ImportExpression[source.value=/${leaves.replaceAll('/', '\\/')}/]`, message: FEATURE_BOUNDARY },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/*.config.*', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // Readable by the next engineer (issue 34, ADR 0061): no production file over 400 lines, no function over 120.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['**/*.spec.ts', '**/*.spec.tsx', '**/test/**', '**/testing/**', '**/e2e/**'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Not yet for the web app's components (a component's JSX counts as its lines): nine screens are still over 120
    // (issue 34 lists them); the file limit holds there.
    files: ['web/src/**/*.tsx'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // The named exceptions to the function length: a decider is one exhaustive switch over its aggregate's commands
    // (ADR 0002: read top to bottom, one case per command), and a frozen migration is never edited once released.
    files: ['services/*/src/**/domain/decide.ts', 'services/*/src/db/migrations/*.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // Domain files are pure (see docs/adr/0002 and 0014): no I/O libraries, and of the kit only its pure entry
    // `@ques/kit/domain` (decider and event types, domain errors) — never its root entry, which opens connections.
    files: ['**/src/**/domain/**/*.ts', '**/src/**/decide.ts', '**/src/**/*.domain.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@ques/kit', message: 'Domain files are pure: import from @ques/kit/domain.' },
            { name: '@ques/kit/testing', message: 'Domain files are pure: the test harness belongs in spec files.' },
          ],
          patterns: [
            {
              group: [
                'fastify',
                'fastify/*',
                'fastify-*',
                '@fastify/*',
                'kysely',
                'kysely/*',
                'pg',
                'pg/*',
                '@electric-sql/*',
                'nats',
                'stripe',
                'pino',
                'pino/*',
                'nodemailer',
                'nodemailer/*',
                'undici',
                'node:fs',
                'node:fs/*',
                'fs',
                'fs/*',
                'node:net',
                'net',
                'node:http',
                'node:https',
                'http',
                'https',
                'node:child_process',
                'child_process',
              ],
              message: 'Domain files are pure: no I/O imports.',
            },
          ],
        },
      ],
    },
  },
  ...featureBoundaries,
);
