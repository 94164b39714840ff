/**
 * `npm run bench:soak [-- --minutes 15 --endpoints 50 --read-rps 20 --port 3370 --no-build]`
 *
 * Soak test of the whole service as an operator runs it: one `tokenpace start` (embedded durable
 * PostgreSQL, reference server, web, worker) in a fresh data directory; `--endpoints` local
 * endpoints (all served by the calibration reference server, distinct model ids) probed every
 * minute with one scheduled workload, for `--minutes`, while autocannon keeps a steady read load
 * of `--read-rps` requests/s on the public API. Prints, per process (web, worker, reference,
 * postgres), RSS at start and end (from /proc), JS heap used and open handles at start and end
 * (web: its own /metrics; worker: the metrics stored with its heartbeat), RSS and heap slopes per
 * process (least squares over one sample a minute, MB/hour with R²), and the probe
 * bookkeeping: slots enqueued, measured, lost (finished without a measurement) and duplicated
 * (a slot or an endpoint-minute with two measurements). Targets: memory flat within 10 %, 0 lost,
 * 0 duplicates. Uses the web build of the checkout (builds it when missing, like `tokenpace start`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { eq, ne, sql } from 'drizzle-orm';
import { openDb } from '@/db/client';
import { endpoints, workloads } from '@/db/schema';
import { HEADLINE_WORKLOAD_SLUG } from '@/lib/probe/workloads';

const ROOT = path.resolve(import.meta.dirname, '..');

interface ProcessFigures {
  rssMb: number | null;
  heapUsedMb: number | null;
  handles: number | null;
}

function parseFlags() {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '15' },
      endpoints: { type: 'string', default: '50' },
      'read-rps': { type: 'string', default: '20' },
      port: { type: 'string', default: '3370' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const num = (name: string, v: string, min: number, max: number) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name}: expected a number from ${min} to ${max} (got "${v}")`);
    return n;
  };
  return {
    minutes: num('minutes', values.minutes!, 1, 24 * 60),
    endpoints: num('endpoints', values.endpoints!, 1, 1000),
    readRps: num('read-rps', values['read-rps']!, 0, 10_000),
    port: num('port', values.port!, 1024, 65535),
    noBuild: values['no-build'] === true,
  };
}

function rssMb(pid: number | null | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 102.4) / 10 : null;
  } catch {
    return null;
  }
}

/** Postgres: the postmaster and all its backends (children), summed. */
function postgresRssMb(postmasterPid: number | null | undefined): number | null {
  if (!postmasterPid) return null;
  let total = rssMb(postmasterPid) ?? 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmasterPid) total += rssMb(Number(entry)) ?? 0;
    } catch {
      // process ended while reading
    }
  }
  return Math.round(total * 10) / 10;
}

/** Value of `family{…labels containing match…}` in a Prometheus text body (first match). */
function metricValue(text: string, family: string, match: string): number | null {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${family}{`) && line.includes(match)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

async function main(): Promise<void> {
  const flags = parseFlags();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenpace-soak-'));
  fs.chmodSync(dataDir, 0o755);
  const base = `http://127.0.0.1:${flags.port}`;
  console.log(`[soak] ${flags.endpoints} endpoints, ${flags.minutes} min, ${flags.readRps} reads/s; data in ${dataDir}`);
  const start = spawn(process.execPath, [path.join(ROOT, 'bin', 'tokenpace.mjs'), 'start', ...(flags.noBuild ? ['--no-build'] : [])], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(flags.port),
      TOKENPACE_DATA_DIR: dataDir,
      TOKENPACE_PG_PORT: String(flags.port + 10_000 > 32_767 ? 13_400 : flags.port + 10_000),
      TOKENPACE_REFERENCE_PORT: String(flags.port + 1),
      TOKENPACE_ALLOW_PRIVATE: '1',
      TOKENPACE_PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  start.stdout?.resume();
  start.stderr?.on('data', (d) => process.stderr.write(`[start] ${d}`));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    start.kill('SIGTERM');
    await new Promise((r) => start.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok === true, 600_000, 'the service to start');
    const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    const pgPort = flags.port + 10_000 > 32_767 ? 13_400 : flags.port + 10_000;
    const { db, close } = openDb(`postgres://postgres:${password}@127.0.0.1:${pgPort}/tokenpace`, 2);
    // The bench's endpoints: N openai-chat endpoints on the reference server, one scheduled workload.
    const [calibration] = await db.select().from(endpoints).where(eq(endpoints.isCalibration, true)).limit(1);
    if (!calibration) throw new Error('no calibration endpoint seeded');
    // The headline workload: the cadence probes it on every endpoint every slot (lib/probe/cadence).
    const [workload] = await db.select({ id: workloads.id, slug: workloads.slug }).from(workloads).where(eq(workloads.slug, HEADLINE_WORKLOAD_SLUG)).limit(1);
    if (!workload) throw new Error(`workload ${HEADLINE_WORKLOAD_SLUG} not seeded`);
    await db.update(workloads).set({ scheduled: false }).where(ne(workloads.id, workload.id));
    await db.update(endpoints).set({ status: 'paused' }).where(eq(endpoints.id, calibration.id));
    const rows = Array.from({ length: flags.endpoints }, (_, i) => ({
      slug: `soak-${i + 1}`,
      providerId: calibration.providerId,
      modelId: calibration.modelId,
      protocol: 'openai-chat' as const,
      baseUrl: calibration.baseUrl,
      apiModelId: `soak-model-${i + 1}`,
      allowPrivate: true,
      status: 'active' as const,
    }));
    const soakIds = (await db.insert(endpoints).values(rows).returning({ id: endpoints.id })).map((r) => r.id);
    console.log(`[soak] ${soakIds.length} endpoints × workload ${workload.slug}, probed every minute`);

    // Steady read load for the whole run.
    // Realistic reads: the pages and API routes visitors, embeds and journalists hit.
    const readUrls = [
      '/api/v1/endpoints',
      `/api/v1/endpoints/${soakIds[0]}/uptime`,
      '/api/v1/leaderboard?model=tokenpace-reference&window=24h',
      '/',
      `/endpoints/${soakIds[1]}`,
      `/api/v1/endpoints/${soakIds[2]}/measurements?limit=50`,
      '/api/v1/history?model=tokenpace-reference&window=7d',
      '/api/v1/leaderboard.csv?model=tokenpace-reference',
      '/models',
    ];
    const load =
      flags.readRps > 0
        ? autocannon({
            url: base,
            connections: 4,
            overallRate: flags.readRps,
            duration: flags.minutes * 60 + 30,
            requests: readUrls.map((p) => ({ method: 'GET', path: p })),
          })
        : null;

    const sample = async (): Promise<Record<string, ProcessFigures>> => {
      const run = JSON.parse(fs.readFileSync(path.join(dataDir, 'run', 'start.json'), 'utf8')) as { children: Record<string, number | null> };
      const text = await (await fetch(`${base}/metrics`)).text();
      const webMatch = `instance="${os.hostname()}:${run.children.web}"`;
      const workerMatch = `worker_id="${os.hostname()}:${run.children.worker}"`;
      const jobsMatch = `worker_id="${os.hostname()}:${run.children.jobs}"`;
      const fig = (pid: number | null | undefined, match: string | null): ProcessFigures => ({
        rssMb: rssMb(pid),
        heapUsedMb: match ? round1((metricValue(text, 'tokenpace_nodejs_heap_size_used_bytes', match) ?? NaN) / 1048576) : null,
        handles: match ? metricValue(text, 'tokenpace_nodejs_active_handles_total', match) : null,
      });
      return {
        web: fig(run.children.web, webMatch),
        worker: fig(run.children.worker, workerMatch),
        jobs: fig(run.children.jobs, jobsMatch),
        reference: fig(run.children.reference, null),
        postgres: { rssMb: postgresRssMb(run.children.postgres), heapUsedMb: null, handles: null },
      };
    };
    // Warm-up: the first minute of probes and reads, then the start figures.
    await new Promise((r) => setTimeout(r, 60_000));
    const t0 = new Date();
    const first = await sample();
    console.log(`[soak] start figures taken at ${t0.toISOString()}; running ${flags.minutes} min`);
    const deadline = Date.now() + flags.minutes * 60_000;
    // One sample a minute of every process: the slopes below are fitted over all of them.
    const series: Array<{ minute: number; figures: Record<string, ProcessFigures> }> = [{ minute: 0, figures: first }];
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.min(60_000, deadline - Date.now())));
      const [m] = (await db.execute(sql`select count(*)::int as n from measurements where endpoint_id in ${soakIds}`)) as unknown as Array<{ n: number }>;
      const figures = await sample().catch(() => null);
      const minute = (Date.now() - t0.getTime()) / 60_000;
      if (figures) series.push({ minute, figures });
      console.log(
        `[soak] ${minute.toFixed(1)} min: ${m!.n} measurements; RSS MB ${
          figures
            ? Object.entries(figures)
                .map(([k, f]) => `${k} ${f.rssMb ?? '–'}`)
                .join(', ')
            : '(sample failed)'
        }`,
      );
    }
    const last = await sample();
    series.push({ minute: (Date.now() - t0.getTime()) / 60_000, figures: last });
    const t1 = new Date();
    if (load) (load as unknown as { stop: () => void }).stop();

    // Bookkeeping over the soak window [t0, t1): slots enqueued vs measured, duplicates, gaps.
    const [books] = (await db.execute(sql`
      with jobs as (
        select data->>'jobKey' as job_key, state, (data->>'endpointId')::int as endpoint_id
        from pgboss.job where name like 'probe-%' and (data->>'slotStart')::timestamptz >= ${t0.toISOString()}::timestamptz
          and (data->>'slotStart')::timestamptz < ${new Date(t1.getTime() - 120_000).toISOString()}::timestamptz
          and (data->>'endpointId')::int in ${soakIds}
      )
      select count(*)::int as enqueued,
        count(*) filter (where exists (select 1 from measurements m where m.job_key = jobs.job_key))::int as measured,
        count(*) filter (where state in ('completed', 'failed', 'cancelled') and not exists (select 1 from measurements m where m.job_key = jobs.job_key))::int as lost,
        count(*) filter (where state not in ('completed', 'failed', 'cancelled'))::int as unfinished
      from jobs`)) as unknown as Array<{ enqueued: number; measured: number; lost: number; unfinished: number }>;
    const [dups] = (await db.execute(sql`
      select count(*)::int as n from (
        select endpoint_id, date_trunc('minute', measured_at) from measurements
        where endpoint_id in ${soakIds} and measured_at >= ${t0.toISOString()}::timestamptz
        group by 1, 2 having count(*) > 1) d`)) as unknown as Array<{ n: number }>;
    const [gaps] = (await db.execute(sql`
      select count(*)::int as n from generate_series(date_trunc('minute', ${t0.toISOString()}::timestamptz) + interval '1 minute', date_trunc('minute', ${t1.toISOString()}::timestamptz) - interval '2 minutes', interval '1 minute') s(minute)
      cross join unnest(${sql.raw(`array[${soakIds.join(',')}]`)}::int[]) e(id)
      where not exists (select 1 from pgboss.job j where j.name like 'probe-%' and (j.data->>'endpointId')::int = e.id and (j.data->>'slotStart')::timestamptz = s.minute)`)) as unknown as Array<{
      n: number;
    }>;
    const outcomes = (await db.execute(sql`
      select outcome, coalesce(error_kind, '') as error_kind, count(*)::int as n from measurements
      where endpoint_id in ${soakIds} and measured_at >= ${t0.toISOString()}::timestamptz group by 1, 2 order by 3 desc`)) as unknown as Array<{
      outcome: string;
      error_kind: string;
      n: number;
    }>;
    await close();

    console.log('\n== bench:soak ==');
    console.log(
      `window ${t0.toISOString()} → ${t1.toISOString()} (${((t1.getTime() - t0.getTime()) / 60_000).toFixed(1)} min), ${flags.endpoints} endpoints, ${flags.readRps} reads/s`,
    );
    console.log('process     RSS start→end MB (Δ%)      heap used start→end MB (Δ%)   open handles start→end');
    for (const name of Object.keys(first)) {
      const a = first[name]!;
      const b = last[name]!;
      console.log(
        `${name.padEnd(10)}  ${fmtPair(a.rssMb, b.rssMb).padEnd(26)} ${fmtPair(a.heapUsedMb, b.heapUsedMb).padEnd(29)} ${a.handles ?? '–'} → ${b.handles ?? '–'}`,
      );
    }
    console.log(`slopes over ${series.length} samples (least squares, first minute of warm-up excluded): MB per hour`);
    // The whole run, and its second half alone (after start-up caches and JIT have settled, a leak is what still grows).
    const half = series.filter((x) => x.minute >= series[series.length - 1]!.minute / 2);
    console.log('process     RSS MB/h (R²)            heap used MB/h (R²)      second half: RSS MB/h (R²)   heap MB/h (R²)');
    for (const name of Object.keys(first)) {
      const slopeOf = (points: typeof series, key: 'rssMb' | 'heapUsedMb') => fitSlope(points.map((x) => [x.minute, x.figures[name]?.[key] ?? null]));
      console.log(
        `${name.padEnd(10)}  ${fmtSlope(slopeOf(series, 'rssMb')).padEnd(24)} ${fmtSlope(slopeOf(series, 'heapUsedMb')).padEnd(24)} ${fmtSlope(slopeOf(half, 'rssMb')).padEnd(28)} ${fmtSlope(slopeOf(half, 'heapUsedMb'))}`,
      );
    }
    console.log(
      `probe slots (endpoint × minute) enqueued ${books!.enqueued}, measured ${books!.measured}, lost ${books!.lost}, unfinished at end ${books!.unfinished}`,
    );
    console.log(`duplicates (endpoint-minutes with >1 measurement): ${dups!.n}; endpoint-minutes never enqueued: ${gaps!.n}`);
    console.log(`outcomes: ${outcomes.map((o) => `${o.outcome}${o.error_kind ? `/${o.error_kind}` : ''} ${o.n}`).join(', ')}`);
  } finally {
    await stop();
  }
}

/** Least-squares slope of (minute, MB) points, in MB per hour, with R²; null with fewer than 3 points. */
function fitSlope(points: Array<[number, number | null]>): { perHour: number; r2: number } | null {
  const p = points.filter((x): x is [number, number] => x[1] !== null && Number.isFinite(x[1]));
  if (p.length < 3) return null;
  const n = p.length;
  const mx = p.reduce((a, [x]) => a + x, 0) / n;
  const my = p.reduce((a, [, y]) => a + y, 0) / n;
  const sxx = p.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  const sxy = p.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const syy = p.reduce((a, [, y]) => a + (y - my) ** 2, 0);
  const slope = sxx > 0 ? sxy / sxx : 0;
  return { perHour: slope * 60, r2: sxx > 0 && syy > 0 ? (sxy * sxy) / (sxx * syy) : 0 };
}

function fmtSlope(f: { perHour: number; r2: number } | null): string {
  return f ? `${f.perHour >= 0 ? '+' : ''}${f.perHour.toFixed(1)} (${f.r2.toFixed(2)})` : '–';
}

function round1(v: number): number | null {
  return Number.isFinite(v) ? Math.round(v * 10) / 10 : null;
}

function fmtPair(a: number | null, b: number | null): string {
  if (a === null || b === null) return `${a ?? '–'} → ${b ?? '–'}`;
  return `${a} → ${b} (${a > 0 ? (((b - a) / a) * 100).toFixed(1) : '–'}%)`;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`timed out waiting for ${what}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`[soak] failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
