/**
 * `npm run test:database-url`: the DATABASE_URL path. Runs the database and worker test files
 * against a separately started server instead of the per-run embedded one:
 * TOKENPACE_TEST_DATABASE_URL when given (in CI: the machine's PostgreSQL 15 on 127.0.0.1:5432),
 * otherwise a second embedded PostgreSQL started here, so `npm test` needs no installed server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startTestPostgres } from './start-test-postgres';

/**
 * Test files that start their own PostgreSQL servers whatever the URL says (durability, orphaned
 * servers, Postgres restarts): running them again here would test nothing new and cost minutes.
 */
const OWN_SERVER_TESTS = ['db/embedded.test.ts', 'workers/fault-tolerance.test.ts'];

async function main(): Promise<number> {
  let url = process.env.TOKENPACE_TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | null = null;
  let dir: string | null = null;
  if (!url) {
    const started = await startTestPostgres({ prefix: 'tokenpace-dburl-pg-', portBase: 24500, portSpan: 500 });
    const server = started.server;
    dir = started.dataDir;
    url = server.url;
    stop = server.stop;
    console.log(`[test:database-url] no TOKENPACE_TEST_DATABASE_URL: started a separate embedded server at ${url.replace(/:[^:@]*@/, ':***@')}`);
  } else {
    console.log(`[test:database-url] using ${url.replace(/:[^:@]*@/, ':***@')}`);
  }
  try {
    // spawn, not spawnSync: the embedded server's log pipes are read by this process's event loop;
    // blocked in spawnSync it stopped reading them, the pipe filled, and the checkpointer hung
    // writing a log line (every DROP DATABASE then waited on a checkpoint that never came).
    const child = spawn(
      process.execPath,
      [path.resolve('node_modules/vitest/vitest.mjs'), 'run', 'db', 'workers', ...OWN_SERVER_TESTS.flatMap((f) => ['--exclude', f])],
      {
        stdio: 'inherit',
        env: { ...process.env, TOKENPACE_TEST_DATABASE_URL: url },
      },
    );
    return await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    if (stop) await stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[test:database-url] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
