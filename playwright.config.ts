import { defineConfig } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';

/**
 * End-to-end tests in Debian's Chromium (/usr/bin/chromium; Playwright's own browser download
 * cannot run here). One `tokenpace start` from a clean data directory serves every spec, exactly
 * as a newcomer would run it: embedded Postgres, calibration reference server, web and worker.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `tokenpace-e2e-${process.pid}-${Date.now()}`);
// Test workers are separate processes that load this file again: they find the server's data
// directory (and its per-install Postgres password, db/embedded.ts) through the environment.
process.env.E2E_DATA_DIR = DATA_DIR;

export default defineConfig({
  testDir: './e2e',
  // Own artefact folders per port too: a concurrent run in the same checkout would otherwise wipe them mid-test.
  outputDir: PORT === 3210 ? 'test-results' : `test-results-${PORT}`,
  testMatch: '**/*.spec.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: PORT === 3210 ? 'playwright-report' : `playwright-report-${PORT}` }]],
  // start.spec.ts checks what a newcomer sees within two minutes of a fresh start, so it runs
  // before every other spec (which add data and take time). `--no-deps` runs one spec alone.
  projects: [
    { name: 'fresh-start', testMatch: '**/start.spec.ts' },
    { name: 'flows', testMatch: '**/*.spec.ts', testIgnore: '**/start.spec.ts', dependencies: ['fresh-start'] },
  ],
  use: {
    baseURL: `http://localhost:${PORT}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-quic',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `node bin/tokenpace.mjs start`,
    url: `http://localhost:${PORT}/api/health`,
    timeout: 600_000, // a cold `next build` took 286 s on a loaded 2-core machine
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    env: {
      ...(process.env as Record<string, string>),
      PORT: String(PORT),
      TOKENPACE_DATA_DIR: DATA_DIR,
      TOKENPACE_PG_PORT: String(Number(process.env.E2E_PG_PORT ?? 3211)),
      TOKENPACE_REFERENCE_PORT: String(Number(process.env.E2E_REFERENCE_PORT ?? 3998)),
      TOKENPACE_E2E_STARTED_AT: String(Date.now()),
      // Submissions in e2e/provider-submission.spec.ts point at a reference server on loopback.
      TOKENPACE_ALLOW_PRIVATE: '1',
      DATABASE_URL: '',
      // Own build folder per port, so concurrent e2e runs in one checkout never share a build.
      TOKENPACE_NEXT_DIST_DIR: process.env.TOKENPACE_NEXT_DIST_DIR ?? (PORT === 3210 ? '.next' : `.next-e2e-${PORT}`),
    },
  },
});
