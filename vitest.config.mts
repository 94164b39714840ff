import { defineConfig } from 'vitest/config';
import path from 'node:path';

// Unit and integration tests live beside the code as *.test.ts; e2e/ belongs to Playwright.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['{lib,db,server,workers,cli,app}/**/*.test.ts'],
    globalSetup: ['./db/test-support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
