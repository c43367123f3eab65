// Shared, type-aware lint rules for every workspace. Each workspace runs `eslint .` from its own folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
