// ESLint flat config: a small rule set that catches real mistakes, plus the import boundaries of the
// layout (../shared/CONVENTIONS.md, docs/decisions/130-lint-and-import-boundaries.md).
// Imports flow app, workers, cli → server → db → lib; lib → nothing of ours. server/ is the
// application layer (answer composition, caches, cross-instance notification; decision 214);
// db/ is data access only (schema, queries, migrations, the connection).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Relative or `@/` import of a root folder, e.g. `@/db/x`, `../../workers/y`. */
const folderImport = (folders) => `^(@/|(\\.\\./)+)(${folders.join('|')})(/|$)`;

/** Production code never imports test-only helpers (test-support/, test-fixtures/ folders). */
const testSupportPattern = {
  regex: '(^|/)(test-support|test-fixtures)(/|$)',
  message: 'test-support/ and test-fixtures/ are for tests only; production code must not import them.',
};

/** Files that are tests or test helpers: they may cross layers (nothing imports them back). */
const testFiles = ['**/*.test.ts', '**/*.test.tsx', '**/test-support/**', '**/test-fixtures/**', 'e2e/**', 'bench/**', '*.config.ts', '*.config.mts'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      '.next-*/**',
      '.tokenpace/**',
      'playwright-report*/**',
      'test-results*/**',
      '.tp*.config.ts',
      'next-env.d.ts',
      'db/migrations/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        clearImmediate: 'readonly',
        queueMicrotask: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      // Unused names are dead code; a leading underscore marks a deliberately unused parameter.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true,
        },
      ],
      // Off: TypeScript itself checks undefined names (and knows DOM/Node globals); the core rule
      // only duplicates that with false alarms on types.
      'no-undef': 'off',
      // Off: `{}`/empty interfaces and `any` at parse edges are reviewed by hand; the recommended
      // `no-explicit-any` flags test doubles and JSON walkers where `unknown` adds only casts.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Import boundaries (production code only; tests and test helpers may cross layers).
  {
    files: ['lib/**/*.ts', 'lib/**/*.tsx'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'server-only', message: 'lib/ is framework-free.' },
            { name: 'react', message: 'lib/ is framework-free: UI belongs in app/.' },
          ],
          patterns: [
            {
              regex: folderImport(['app', 'server', 'db', 'workers', 'cli', 'bin']),
              message: 'lib/ imports nothing of ours outside lib/ (layout: lib → nothing).',
            },
            { regex: '^(next|react-dom|drizzle-orm|postgres|pg-boss)(/|$)', message: 'lib/ is framework-free: no Next, React, database or queue packages.' },
            testSupportPattern,
          ],
        },
      ],
    },
  },
  {
    files: ['db/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: folderImport(['app', 'server', 'workers', 'cli', 'bin']),
              message: 'db/ is data access: it imports only lib/ (layout: db → lib); answer composition, caches and notification live in server/.',
            },
            { regex: '^next(/|$)', message: 'db/ does not depend on Next.' },
            testSupportPattern,
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: folderImport(['app', 'workers', 'cli', 'bin']),
              message: 'server/ imports db/ and lib/ only (layout: server → db → lib); app/, workers/ and cli/ import server/.',
            },
            { regex: '^next(/|$)', message: 'server/ is shared by the web and the workers: it does not depend on Next.' },
            testSupportPattern,
          ],
        },
      ],
    },
  },
  {
    files: ['workers/**/*.ts', 'cli/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: folderImport(['app']), message: 'workers/ and cli/ import server/, db/ and lib/, never app/.' }, testSupportPattern],
        },
      ],
    },
  },
  {
    files: ['app/**/*.ts', 'app/**/*.tsx', 'proxy.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: folderImport(['workers', 'cli', 'bin']), message: 'app/ imports server/, db/ and lib/, never workers/ or cli/.' },
            testSupportPattern,
          ],
        },
      ],
    },
  },
);
