/**
 * API scale benchmark: `npm run bench:api` (tsx bench/api-scale.ts [--skip-build] [--duration 30]).
 *
 * 1. Starts its OWN embedded PostgreSQL 17 (data in /tmp/tokenpace-bench-api, port 15490 (`--pg-port`); never the
 *    dev database), migrates and seeds the catalog, and loads clearly synthetic measurements
 *    (worker_version 'bench-synthetic', job keys 'bench:N') with generate_series in SQL: every
 *    2 minutes per endpoint × scheduled workload × region (14 × 4 × 2 series), 1M rows ≈ 12 days,
 *    then 9M more older rows (10M ≈ 124 days). Rows of the last two days and every 50th row carry
 *    a realistic encoded timeline of a 1,000-token answer (lib/probe/timeline-codec).
 *    measurements is partitioned by UTC month (decision 217): the load's months get their partitions
 *    first, and each size prints how many there are and which ones a 72 h window reads (EXPLAIN).
 * 2. Builds hourly and daily rollups (with sketches) from raw, as `rebuildRollups` does.
 * 3. Builds the web app once (TOKENPACE_NEXT_DIST_DIR=.next-bench) and starts the real server
 *    (`node node_modules/next/dist/bin/next start`, port 15260, `--web-port`; the files the build rewrites — tsconfig.json, next-env.d.ts — are restored afterwards) against that database with the
 *    public rate limit off. Beside it, this process plays the worker: the rollup job and the
 *    precompute-answers job once, then every minute (issue 13: answers computed once per change).
 * 4. Drives GET /api/v1/leaderboard with autocannon, every request with varied parameters (model,
 *    workload, window 24h/72h/7d, basis; `--at-share` (default 0.1) of them with `at` = a random
 *    second in the last 3 days, computed on demand and each a new snapshot; the web's snapshot budget
 *    is lifted, TOKENPACE_SNAPSHOT_BUDGET_PER_HOUR, so none is refused), beside the static
 *    GET /api/v1/ping on the same server with the same load generator:
 *    - saturation (100 connections) of ping, then of the leaderboard;
 *    - an offered load of 40 % of ping's saturation, ping then leaderboard: p50/p99, and the web
 *      process's event-loop delay (p99/max, from its /metrics, reset by each scrape) and GC time in
 *      that run, so a p99 above 50 ms can be told apart (GC, synchronous work, database waits).
 * 5. Runs at 1M and 10M rows (`--sizes` for other counts) and prints one table and the issue's
 *    targets as met / not met, then the cost of retention (DELETE of a day against DROP of the
 *    oldest month; it runs last, the data being no longer needed), then exits 0 (1 when the bench
 *    itself failed).
 * 6. The per-minute freshness work (issue 24, decision 218), timed over `--minutes` (default 3)
 *    steady-state minutes: before each, one minute of probes at the scheduler's cadence is
 *    inserted, then the rollup and precompute jobs run as of that minute (wall and CPU printed per
 *    minute; the slowest is the figure). `--endpoints 200` probes a catalog of 200 endpoints (every
 *    listed model's plus copies); `--reuse-data` goes on with the database an earlier run left.
 *    `--cross-hour [HH]` times minutes that cross a UTC hour (decision 314): the run's t0 is an
 *    xx:57 (of the hour before HH:00 UTC when HH is given, e.g. 18 for a 6-hour edge, 0 for
 *    midnight), so with `--minutes 5` the timed minutes are as of xx:58, xx:59, the hour (every
 *    live answer's window start moves), +1 and +2. Fresh data is loaded as of the latest such t0 in
 *    the past; with `--reuse-data` t0 is the next one after the data's newest minute and the
 *    minutes in between get probes at the cadence (one catch-up rollup, untimed).
 * Targets (issue 13): leaderboard saturation ≥ 0.9× ping (a run with any non-2xx or error is not met); at 40 % of ping's saturation, leaderboard
 * p99 ≤ 1.5× ping p99 at each size; 10M/1M leaderboard latency ratio ≤ 1.2; at most one snapshot row
 * per distinct answer; ≤ 2 KB per measurement with its timeline.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sql as dsql } from 'drizzle-orm';
import postgres from 'postgres';
import { openDb } from '@/db/client';
import { startEmbeddedPostgres, type EmbeddedServer } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { rebuildRollups } from '@/db/queries/rollups';
import { PROGRESS_LAG_RUNS } from '@/db/queries/rollup-progress';
import { seedCatalog } from '@/db/seed';
import { planRelations } from '@/db/test-support/plan-relations';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { listDueWorkloadSlugs } from '@/lib/probe/cadence';
import { encodeTimeline } from '@/lib/probe/timeline-codec';
import type { TimelineEntry } from '@/lib/probe/types';
import { mulberry32 } from '@/lib/stats/random';
import { runRollupJob } from '@/workers/tasks/rollup-measurements';
import { computeLeaderboardAnswer } from '@/server/leaderboard-answers';
import { loadWindowFigures } from '@/server/window-stats';
import { runPrecomputeAnswersJob } from '@/workers/tasks/precompute-answers';

const ROOT = path.resolve(import.meta.dirname, '..');
const argOf = (name: string): string | undefined => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
/** `--data-dir` moves it, so two checkouts can bench at once. */
const DATA_DIR = argOf('--data-dir') ?? '/tmp/tokenpace-bench-api';
const DIST_DIR = '.next-bench';
const args = process.argv.slice(2);
const argValue = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
/**
 * Ports below Linux's ephemeral range (32768–60999, /proc/sys/net/ipv4/ip_local_port_range), so an
 * outgoing connection of another process can never hold them (54490 collided twice); `--pg-port`,
 * `--web-port` to move them.
 */
const PG_PORT = Number(argValue('--pg-port') ?? 15490);
const WEB_PORT = Number(argValue('--web-port') ?? 15260);
for (const p of [PG_PORT, WEB_PORT])
  if (!(Number.isInteger(p) && p > 1024 && (p < 32768 || p > 60999)))
    throw new Error(`port ${p} must be an integer in 1025–32767 or 61000–65535 (outside the ephemeral range)`);
const SKIP_BUILD = args.includes('--skip-build');
const DURATION = Number(args.includes('--duration') ? args[args.indexOf('--duration') + 1] : 0) || 30;
/** --sizes 100000,300000 for a quick smoke run; default 1M and 10M. */
const SIZES = (args.includes('--sizes') ? args[args.indexOf('--sizes') + 1]! : '1000000,10000000').split(',').map(Number);
const sizeLabel = (n: number) => (n % 1_000_000 === 0 ? `${n / 1_000_000}M` : `${n / 1000}k`);
const SERIES_INTERVAL_S = 120;
/** Share of leaderboard requests with `at=` (old boards, computed on demand). */
const AT_SHARE = Number(args.includes('--at-share') ? args[args.indexOf('--at-share') + 1] : 0.1);
const TIMELINE_POOL = 64;
/** --cold-only: no web server; only the cold-answer CPU and the per-minute freshness work per size. */
const COLD_ONLY = args.includes('--cold-only');
/** --endpoints N: probe N endpoints (every listed model's, plus copies of them); default the two bench models' 14. */
const ENDPOINTS = Number(argValue('--endpoints') ?? 0);
/** --reuse-data: go on with the database an earlier run left in --data-dir (no reload; for the per-minute figures). */
const REUSE_DATA = args.includes('--reuse-data');
/** --full-catalog: synthetic rows for every listed endpoint; default only the two models the load asks for (the 14-endpoint bench). */
const FULL_CATALOG = args.includes('--full-catalog');
/**
 * --cross-hour [HH]: t0 is an xx:57 (the one before HH:00 UTC when given), so the timed minutes
 * cross a UTC hour (the third of them is as of the hour). null = t0 is the current minute.
 */
const CROSS_HOUR: { hour: number | null } | null = args.includes('--cross-hour')
  ? { hour: /^\d{1,2}$/.test(argValue('--cross-hour') ?? '') ? Number(argValue('--cross-hour')) : null }
  : null;
if (CROSS_HOUR?.hour != null && !(CROSS_HOUR.hour >= 0 && CROSS_HOUR.hour <= 23)) throw new Error('--cross-hour HH: an hour of the day, 0–23 (UTC)');

/**
 * The xx:57 before an hour (HH:00 UTC with --cross-hour HH, else any hour): the latest at or before
 * `t` (`dir` -1) or the earliest at or after it (`dir` 1).
 */
function crossingT0(t: Date, dir: -1 | 1): Date {
  const step = CROSS_HOUR?.hour == null ? 3600_000 : 86400_000;
  const HOUR_MS = 3600_000;
  const phase = ((CROSS_HOUR?.hour ?? 0) * HOUR_MS - 3 * 60_000 + step) % step;
  const k = (dir === -1 ? Math.floor : Math.ceil)((t.getTime() - phase) / step);
  return new Date(k * step + phase);
}

const log = (m: string) => process.stderr.write(`[bench:api] ${m}\n`);
const secs = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

/** Realistic 1,000-token timelines: TTFT 100–800 ms, mostly 1 token per event, jittered gaps. */
function makeTimelines(): Buffer[] {
  const rand = mulberry32(7);
  return Array.from({ length: TIMELINE_POOL }, () => {
    const speed = 80 + rand() * 1100;
    let t = 100 + rand() * 700;
    let left = 1000;
    const entries: TimelineEntry[] = [];
    while (left > 0) {
      const u = rand();
      const tokens = Math.min(left, u < 0.8 ? 1 : u < 0.9 ? 2 : 3 + Math.floor(rand() * 4));
      entries.push({ atMs: t, tokens, channel: 'answer' });
      left -= tokens;
      t += (tokens / speed) * 1000 * (0.5 + rand());
    }
    return encodeTimeline(entries);
  });
}

async function setupDatabase(url: string, sql: postgres.Sql, t0: Date): Promise<number> {
  await migrateDatabase(url);
  const { db, close } = openDb(url, 2);
  await seedCatalog(db, { workloads: SEED_WORKLOADS, lookupEnv: () => 'bench', referencePort: 3999 });
  await close();
  // The bench catalog: only the two models the load asks for are probed (they get rows);
  // the seed's other endpoints are marked not probed, so the per-minute work covers what is measured
  // (the precompute job takes models with an active or recently measured endpoint, decision 223).
  if (!FULL_CATALOG && ENDPOINTS === 0) {
    await sql`update endpoints set status = 'inactive'
      where status = 'active' and model_id not in (select id from models where slug in ('llama-4-maverick', 'tokenpace-reference'))`;
  }
  if (ENDPOINTS > 0) {
    // A larger catalog: every listed model's endpoints probed, and copies of them (each its own
    // slug and provider model id, same model, round robin over the models) up to ENDPOINTS.
    await sql`update endpoints set status = 'inactive' where status = 'active' and model_id not in (select id from models where listed)`;
    const have = (await sql<{ n: number }[]>`select count(*)::int as n from endpoints where status = 'active'`)[0]!.n;
    if (have > ENDPOINTS) throw new Error(`--endpoints ${ENDPOINTS}: the catalog already probes ${have}`);
    await sql.unsafe(`
      create temp table bench_copies as
      select e.* from generate_series(1, ${ENDPOINTS - have}) g(i)
      join lateral (
        select e.* from endpoints e where e.status = 'active' and not e.is_calibration
        order by e.model_id, e.id offset (g.i % (select count(*) from endpoints where status = 'active' and not is_calibration)) limit 1
      ) e on true`);
    await sql.unsafe(`update bench_copies set id = nextval(pg_get_serial_sequence('endpoints', 'id'))`);
    await sql.unsafe(`update bench_copies set slug = slug || '-bench-' || id, api_model_id = api_model_id || '-bench-' || id`);
    await sql.unsafe(`insert into endpoints select * from bench_copies; drop table bench_copies`);
  }
  await sql`
    create table if not exists bench_series as
    select (row_number() over (order by e.id, w.id, r.region) - 1)::int as k, e.id as endpoint_id, w.id as workload_id, r.region,
           (150 + (e.id * 97 % 11) * 90)::float8 as base_speed, (0.9 + (e.id % 5) * 0.05)::float8 as o200k_factor,
           (120 + (e.id * 31 % 7) * 60)::float8 as base_ttft, (e.id % 6 = 2) as has_step
    from endpoints e cross join workloads w cross join (values ('us-east'), ('eu-west')) r(region)
    where w.scheduled and e.status in ('active', 'inactive', 'paused') and (${ENDPOINTS === 0} or e.status = 'active')
      and (${FULL_CATALOG || ENDPOINTS > 0} or e.model_id in (select id from models where slug in ('llama-4-maverick', 'tokenpace-reference')))`;
  const series = await sql<{ n: number }[]>`select count(*)::int as n from bench_series`;
  await sql`create table if not exists bench_timelines (k int primary key, tl bytea not null)`;
  const pool = makeTimelines();
  await sql`delete from bench_timelines`;
  for (let k = 0; k < pool.length; k++) await sql`insert into bench_timelines values (${k}, ${pool[k]!})`;
  log(`${series[0]!.n} series (endpoint × scheduled workload × region), t0 = ${t0.toISOString()}`);
  return series[0]!.n;
}

const SECONDARY_INDEXES = [
  'create index if not exists measurements_endpoint_time_idx on measurements (endpoint_id, measured_at)',
  'create index if not exists measurements_workload_time_idx on measurements (workload_id, measured_at)',
];

/** Loads rows with global index [from, to): row i is taken at t0 − ⌊i / nSeries⌋ · 120 s. */
async function loadRows(sql: postgres.Sql, nSeries: number, t0: Date, from: number, to: number): Promise<void> {
  const start = performance.now();
  const constraint = await sql<{ conname: string }[]>`select conname from pg_constraint where conrelid = 'measurements'::regclass and contype = 'u'`;
  for (const c of constraint) await sql.unsafe(`alter table measurements drop constraint "${c.conname}"`);
  await sql.unsafe(
    'drop index if exists measurements_job_key_unique; drop index if exists measurements_endpoint_time_idx; drop index if exists measurements_workload_time_idx',
  );
  // The months the rows fall in get their partitions first (decision 217; the migration made only
  // this month and the next three), so no row lands in the default partition. The job-key trigger
  // is off for the bulk load; the keys are written in one statement afterwards.
  const oldest = new Date(t0.getTime() - (Math.ceil(to / nSeries) * SERIES_INTERVAL_S + nSeries) * 1000);
  await sql`select measurements_ensure_partition(m at time zone 'UTC') from generate_series(
    date_trunc('month', ${oldest.toISOString()}::timestamptz at time zone 'UTC'), ${t0.toISOString()}::timestamptz at time zone 'UTC', interval '1 month') m`;
  await sql.unsafe('alter table measurements disable trigger measurements_claim_job_key');
  const recent = Math.floor((2 * 86400) / SERIES_INTERVAL_S) * nSeries;
  const CHUNK = 500_000;
  for (let a = from; a < to; a += CHUNK) {
    const b = Math.min(a + CHUNK, to);
    await sql.unsafe(
      `
      insert into measurements (job_key, endpoint_id, workload_id, measured_at, worker_region, worker_version, outcome, error_kind, http_status,
        connect_ms, ttfb_ms, ttft_ms, ttfat_ms, e2e_ms, output_tokens_reported, output_tokens_o200k, output_tokens_per_second,
        output_tokens_per_second_o200k, tpot_ms, content_chunks, finish_reason, timeline, valid, rankable, not_rankable_reasons)
      select 'bench:' || x.i, s.endpoint_id, s.workload_id, x.at, s.region, 'bench-synthetic',
             case when x.fail then 'error' else 'success' end,
             case when not x.fail then null when x.r3 < 0.4 then 'timeout' when x.r3 < 0.7 then 'rate_limited' when x.r3 < 0.9 then 'http_error' else 'stream_error' end,
             case when x.fail and x.r3 >= 0.4 and x.r3 < 0.9 then (case when x.r3 < 0.7 then 429 else 503 end) else 200 end,
             20 + 10 * x.r4, case when x.fail then null else x.ttft * 0.8 end,
             case when x.fail then null else x.ttft end, case when x.fail then null else x.ttft + 5 end,
             case when x.fail then null else x.ttft + (x.tokens - 1) / x.speed * 1000 end,
             case when x.fail then null else x.tokens end, case when x.fail then null else round(x.tokens / s.o200k_factor)::int end,
             case when x.fail then null else x.speed end, case when x.fail then null else x.speed * s.o200k_factor end,
             case when x.fail then null else 1000 / x.speed end, case when x.fail then 0 else x.tokens * 9 / 10 end,
             case when x.fail then null else 'length' end,
             case when not x.fail and (x.i % 50 = 0 or x.i < ${recent}) then tl.tl end,
             x.r4 >= 0.005,
             not x.fail and x.r4 >= 0.005,
             case when x.fail then array['failed'] when x.r4 < 0.005 then array['timing_uncertain'] else array[]::text[] end
      from (
        select g.i, random() as r1, random() as r2, random() as r3, random() as r4, random() as r5,
               $1::timestamptz - make_interval(secs => (g.i / ${nSeries}) * ${SERIES_INTERVAL_S}::float8 + (g.i % ${nSeries}) * 0.9) as at
        from generate_series($2::bigint, $3::bigint - 1) g(i)
      ) q
      join bench_series s on s.k = q.i % ${nSeries}
      cross join lateral (
        select q.i, q.at, q.r3, q.r4, q.r1 < 0.03 as fail,
               s.base_speed * (case when s.region = 'eu-west' then 0.97 else 1 end)
                 * (1 + 0.08 * sin(extract(epoch from q.at) / 86400 / 9 + s.endpoint_id))
                 * (case when s.has_step and q.at > $1::timestamptz - interval '20 days' then 1.3 else 1 end)
                 * exp(0.08 * sqrt(-2 * ln(1 - q.r2)) * cos(2 * pi() * q.r5)) as speed,
               s.base_ttft * exp(0.35 * sqrt(-2 * ln(1 - q.r5)) * cos(2 * pi() * q.r2)) as ttft,
               case when q.i % 50 = 0 or q.i < ${recent} then 1000 else 200 + floor(q.r4 * 800)::int end as tokens
      ) x
      left join bench_timelines tl on tl.k = (q.i % ${TIMELINE_POOL})
    `,
      [t0.toISOString(), a, b],
    );
    log(`  rows ${b.toLocaleString('en')} / ${to.toLocaleString('en')} (${secs(start)} s)`);
  }
  const ti = performance.now();
  const newest = new Date(t0.getTime() - Math.floor(from / nSeries) * SERIES_INTERVAL_S * 1000 + 60_000);
  await sql`insert into measurement_job_keys (job_key, measured_at)
    select job_key, measured_at from measurements
    where measured_at >= ${oldest.toISOString()}::timestamptz and measured_at <= ${newest.toISOString()}::timestamptz
    on conflict do nothing`;
  await sql.unsafe('alter table measurements enable trigger measurements_claim_job_key');
  for (const s of SECONDARY_INDEXES) await sql.unsafe(s);
  await sql.unsafe('analyze measurements');
  log(`  indexes + analyze ${secs(ti)} s; load total ${secs(start)} s`);
}

/**
 * The monthly partitions of measurements (decision 217) and the tables a raw 72-hour window query
 * ending at t0 reads (EXPLAIN): two months at most, never the whole history.
 */
async function partitionPruning(sql: postgres.Sql, t0: Date): Promise<{ partitions: number; scanned: string[] }> {
  const parts = await sql<{ n: number }[]>`select count(*)::int as n from pg_inherits where inhparent = 'measurements'::regclass`;
  const plan = await sql.unsafe<Array<{ 'QUERY PLAN': unknown }>>(
    `explain (format json) select workload_id, count(*) from measurements
     where measured_at > $1::timestamptz - interval '72 hours' and measured_at <= $1::timestamptz group by 1`,
    [t0.toISOString()],
  );
  const scanned = planRelations(plan[0]?.['QUERY PLAN']);
  return { partitions: parts[0]!.n - 1, scanned: [...scanned].sort() };
}

/**
 * What retention costs once the answers are measured (the data is not needed after): DELETE of the
 * first whole day of the oldest monthly partition that holds one (how retention removed raw rows before
 * decision 217, and still removes a partial month) against DROP of that whole partition. Null
 * when the oldest partition holds no whole day.
 */
async function retentionCost(
  sql: postgres.Sql,
): Promise<{ partition: string; partitionRows: number; dropMs: number; dayRows: number; deleteMs: number } | null> {
  const parts = await sql<{ name: string }[]>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'measurements'::regclass and c.relname ~ '^measurements_p[0-9]{6}$' order by 1`;
  for (const { name } of parts) {
    // the first whole day of the partition's data: it starts after the oldest row, and a row lies
    // within 5 minutes of its end (rows are 2 minutes apart per series)
    const [r] = await sql.unsafe<Array<{ n: string; lo: number | null; hi: number | null }>>(
      `select count(*)::text as n, extract(epoch from date_trunc('day', min(measured_at), 'UTC') + interval '1 day')::float8 * 1000 as lo,
              extract(epoch from max(measured_at))::float8 * 1000 as hi from "${name}"`,
    );
    if (!r || r.lo === null || r.hi === null || r.lo + 86400_000 > r.hi + 300_000) continue;
    const dayFrom = new Date(r.lo).toISOString();
    const dayTo = new Date(r.lo + 86400_000).toISOString();
    const t1 = performance.now();
    const deleted = await sql`delete from measurements where measured_at >= ${dayFrom}::timestamptz and measured_at < ${dayTo}::timestamptz`;
    const deleteMs = performance.now() - t1;
    const t2 = performance.now();
    await sql.unsafe(`drop table "${name}"`);
    return { partition: name, partitionRows: Number(r.n), dropMs: performance.now() - t2, dayRows: deleted.count, deleteMs };
  }
  return null;
}

async function buildRollups(url: string, from: Date, to: Date): Promise<string> {
  const { db, close } = openDb(url, 2);
  const start = performance.now();
  const h = await rebuildRollups(db, { granularity: 'hour', from, to });
  const d = await rebuildRollups(db, { granularity: 'day', from, to });
  await db.execute(dsql`analyze measurement_rollups`);
  await close();
  const took = secs(start);
  log(`  rollups: ${h} hourly + ${d} daily buckets in ${took} s`);
  return took;
}

/** Minutes of steady state the per-minute freshness work is timed over (`--minutes`). */
const STEADY_MINUTES = Number(argValue('--minutes') ?? 3);

/**
 * One minute of probes as the scheduler sends them (lib/probe/cadence listDueWorkloadSlugs: the
 * headline workload every minute, each other workload once per 180 minutes at the endpoint's
 * phase, calibration endpoints every workload), in both regions, each a copy of the series' newest
 * row measured inside (minuteStart, minuteStart + 60 s]. Returns the rows written.
 */
async function insertMinuteOfProbes(sql: postgres.Sql, minuteStart: Date): Promise<number> {
  const eps = await sql<{ id: number; is_calibration: boolean; context_window_tokens: number | null }[]>`
    select e.id, e.is_calibration, e.context_window_tokens from endpoints e where e.id in (select distinct endpoint_id from bench_series)`;
  const slugs = await sql<{ id: number; slug: string }[]>`select id, slug from workloads`;
  const idOf = new Map(slugs.map((w) => [w.slug, w.id]));
  const pairs: Array<[number, number]> = [];
  for (const e of eps) {
    const due = listDueWorkloadSlugs({ id: e.id, isCalibration: e.is_calibration, contextWindowTokens: e.context_window_tokens }, minuteStart);
    for (const slug of due) if (idOf.has(slug)) pairs.push([e.id, idOf.get(slug)!]);
  }
  if (pairs.length === 0) return 0;
  const rows = await sql.unsafe(
    `
    insert into measurements (job_key, endpoint_id, workload_id, measured_at, worker_region, worker_version, outcome, error_kind, http_status,
      connect_ms, ttfb_ms, ttft_ms, ttfat_ms, e2e_ms, output_tokens_reported, output_tokens_o200k, output_tokens_per_second,
      output_tokens_per_second_o200k, tpot_ms, content_chunks, finish_reason, timeline, valid, rankable, not_rankable_reasons)
    select 'bench:minute:' || $1 || ':' || s.k, m.endpoint_id, m.workload_id, $2::timestamptz + make_interval(secs => 1 + (s.k % 58)), m.worker_region,
      m.worker_version, m.outcome, m.error_kind, m.http_status, m.connect_ms, m.ttfb_ms, m.ttft_ms, m.ttfat_ms, m.e2e_ms, m.output_tokens_reported,
      m.output_tokens_o200k, m.output_tokens_per_second, m.output_tokens_per_second_o200k, m.tpot_ms, m.content_chunks, m.finish_reason, m.timeline, m.valid,
      m.rankable, m.not_rankable_reasons
    from bench_series s
    join unnest($3::int[], $4::int[]) as d(endpoint_id, workload_id) on d.endpoint_id = s.endpoint_id and d.workload_id = s.workload_id
    cross join lateral (
      select * from measurements m where m.endpoint_id = s.endpoint_id and m.workload_id = s.workload_id and m.worker_region = s.region
      order by m.measured_at desc limit 1
    ) m
    returning 1`,
    [minuteStart.toISOString(), minuteStart.toISOString(), pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  return rows.length;
}

/** CPU and wall of one piece of work (this process, all threads). */
type Timed<T> = <R = T>(f: () => Promise<R>) => Promise<{ r: R; cpuMs: number; wallMs: number }>;

/**
 * The per-minute freshness work in steady state: the rollup and precompute jobs once as of t0
 * (the worker's first minute: full rebuild of the last two hours, every answer computed), then for
 * each of STEADY_MINUTES minutes a minute of probes at the scheduler's cadence and both jobs as of
 * that minute's end, timed. Returns the slowest minute of each job (its figures are the bench's).
 */
async function steadyMinutes(
  db: ReturnType<typeof openDb>['db'],
  sql: postgres.Sql,
  t0: Date,
  fresh: Timed<unknown>,
): Promise<{
  job: { cpuMs: number; wallMs: number };
  pre: { cpuMs: number; wallMs: number; r: { answers: number } };
  minutes: Array<{ rows: number; jobCpuMs: number; jobWallMs: number; preCpuMs: number; preWallMs: number }>;
}> {
  await runPrecomputeAnswersJob(db, t0);
  const minutes: Array<{ rows: number; jobCpuMs: number; jobWallMs: number; preCpuMs: number; preWallMs: number }> = [];
  let job = { cpuMs: 0, wallMs: 0 };
  let pre = { cpuMs: 0, wallMs: 0, r: { answers: 0 } };
  for (let k = 0; k < STEADY_MINUTES; k++) {
    const start = new Date(t0.getTime() + k * 60_000);
    const rows = await insertMinuteOfProbes(sql, start);
    const now = new Date(start.getTime() + 60_000);
    const snapsBefore = (await sql<{ n: number }[]>`select count(*)::int as n from snapshots`)[0]!.n;
    const j = await fresh(() => runRollupJob(db, now));
    const p = await fresh(() => runPrecomputeAnswersJob(db, now));
    const snapsWritten = (await sql<{ n: number }[]>`select count(*)::int as n from snapshots`)[0]!.n - snapsBefore;
    minutes.push({ rows, jobCpuMs: j.cpuMs, jobWallMs: j.wallMs, preCpuMs: p.cpuMs, preWallMs: p.wallMs });
    // Decision 300: answers rebuilt (inputs changed) and written (content changed, one snapshot row each).
    log(
      `  minute ${k + 1} (as of ${now.toISOString()}): ${rows} probes; rollup ${j.wallMs.toFixed(0)} ms wall / ${j.cpuMs.toFixed(0)} ms CPU; precompute ${p.wallMs.toFixed(0)} / ${p.cpuMs.toFixed(0)} (${p.r.answers} answers, ${p.r.computed} rebuilt, ${p.r.written} written; ${snapsWritten} snapshot rows)`,
    );
    if (j.cpuMs + j.wallMs > job.cpuMs + job.wallMs) job = { cpuMs: j.cpuMs, wallMs: j.wallMs };
    if (p.cpuMs + p.wallMs > pre.cpuMs + pre.wallMs) pre = { cpuMs: p.cpuMs, wallMs: p.wallMs, r: { answers: p.r.answers } };
  }
  return { job, pre, minutes };
}

/** Files `next build` rewrites in the work tree (it adds its dist dir's types to tsconfig.json). */
const FILES_NEXT_REWRITES = ['tsconfig.json', 'next-env.d.ts'];

function buildWeb(): void {
  if (SKIP_BUILD && fs.existsSync(path.join(ROOT, DIST_DIR, 'BUILD_ID'))) return;
  const start = performance.now();
  log(`next build → ${DIST_DIR} …`);
  // Leave the work tree as found: restore what the build rewrites (byte for byte; absent stays absent).
  const saved = FILES_NEXT_REWRITES.map((f) => {
    const file = path.join(ROOT, f);
    return { file, bytes: fs.existsSync(file) ? fs.readFileSync(file) : null };
  });
  try {
    buildWebOnce(start);
  } finally {
    for (const { file, bytes } of saved) {
      if (bytes === null) fs.rmSync(file, { force: true });
      else if (!fs.existsSync(file) || !fs.readFileSync(file).equals(bytes)) fs.writeFileSync(file, bytes);
    }
  }
}

function buildWebOnce(start: number): void {
  const r = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
    cwd: ROOT,
    env: { ...process.env, TOKENPACE_NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: '1', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`next build failed:\n${r.stdout}\n${r.stderr}`);
  log(`  built in ${secs(start)} s`);
}

async function startWeb(url: string): Promise<ChildProcess> {
  const out = fs.openSync(path.join(DATA_DIR, 'web.log'), 'a');
  // As `tokenpace start` runs it: the observability preload registers the web's runtime metrics (event-loop delay, GC).
  const child = spawn(
    process.execPath,
    ['--require', './bin/web-observability.cjs', 'node_modules/next/dist/bin/next', 'start', '-p', String(WEB_PORT), '-H', '127.0.0.1'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: url,
        TOKENPACE_NEXT_DIST_DIR: DIST_DIR,
        TOKENPACE_PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
        // Every at= question is computed: with the default 600 an hour the rest were refused with a
        // cheap 503 that counted as a served request and flattered the leaderboard's req/s.
        TOKENPACE_SNAPSHOT_BUDGET_PER_HOUR: '10000000',
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', out, out],
      detached: true,
    },
  );
  for (let i = 0; i < 120; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${WEB_PORT}/api/v1/ping`);
      if (r.ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`web server did not come up; see ${DATA_DIR}/web.log`);
}

function stopWeb(child: ChildProcess): void {
  if (child.pid) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
}

/** A generator of leaderboard paths with varied parameters; `AT_SHARE` of them ask for an old board. */
function leaderboardPaths(t0: Date, seed: number): () => string {
  const rand = mulberry32(seed);
  const models = ['llama-4-maverick', 'tokenpace-reference'];
  const workloads = SEED_WORKLOADS.filter((w) => w.scheduled).map((w) => w.slug);
  const windows = ['24h', '72h', '7d'];
  const bases = ['reported', 'o200k'];
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  return () => {
    const q = new URLSearchParams({ model: pick(models), workload: pick(workloads), window: pick(windows), basis: pick(bases) });
    if (rand() < AT_SHARE) q.set('at', new Date(t0.getTime() - Math.floor(rand() * 3 * 86400) * 1000).toISOString());
    return `/api/v1/leaderboard?${q.toString()}`;
  };
}

interface RunResult {
  reqPerSecMean: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

async function drive(opts: { path?: () => string; fixedPath?: string; connections: number; overallRate?: number; duration: number }): Promise<RunResult> {
  const r = await autocannon({
    url: `http://127.0.0.1:${WEB_PORT}${opts.fixedPath ?? '/api/v1/ping'}`,
    connections: opts.connections,
    duration: opts.duration,
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
    ...(opts.path
      ? {
          requests: [
            {
              method: 'GET',
              setupRequest: (req: Record<string, unknown>) => ({ ...req, path: opts.path!() }),
            },
          ],
        }
      : {}),
  });
  return {
    reqPerSecMean: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    total: r.requests.total,
  };
}

/** The web process's event-loop delay and GC time since the previous scrape (prom-client resets the delay histogram on each scrape). */
interface LoopFigures {
  loopP99Ms: number;
  loopMaxMs: number;
  gcMs: number;
}
let lastGc = new Map<string, { sum: number; count: number }>();
async function scrapeLoop(): Promise<LoopFigures> {
  const text = await (await fetch(`http://127.0.0.1:${WEB_PORT}/metrics`)).text();
  const web = text.split('\n').filter((l) => l.startsWith('tokenpace_') && !l.includes('worker_id='));
  const value = (name: string) =>
    Number(
      web
        .find((l) => l.startsWith(name))
        ?.split(' ')
        .pop() ?? NaN,
    ) * 1000;
  const gc = new Map<string, { sum: number; count: number }>();
  for (const l of web) {
    const m = /^tokenpace_nodejs_gc_duration_seconds_(sum|count)\{[^}]*kind="(\w+)"[^}]*\} ([\d.e+-]+)/.exec(l);
    if (!m) continue;
    const g = gc.get(m[2]!) ?? { sum: 0, count: 0 };
    g[m[1] as 'sum' | 'count'] = Number(m[3]);
    gc.set(m[2]!, g);
  }
  let gcMs = 0;
  for (const [kind, g] of gc) gcMs += (g.sum - (lastGc.get(kind)?.sum ?? 0)) * 1000;
  lastGc = gc;
  return { loopP99Ms: value('tokenpace_nodejs_eventloop_lag_p99_seconds'), loopMaxMs: value('tokenpace_nodejs_eventloop_lag_max_seconds'), gcMs };
}

/**
 * The worker's part, in its own process (as in production, and so its work never stalls the load
 * generator in this one): rollups + precomputed answers now and every minute until killed. Each run
 * is one JSON line on stdout.
 */
async function workerLoop(url: string): Promise<void> {
  const { db } = openDb(url, 2);
  for (;;) {
    const t = Date.now();
    await runRollupJob(db, new Date());
    const r = await runPrecomputeAnswersJob(db, new Date());
    process.stdout.write(`${JSON.stringify({ answers: r.answers, ms: r.ms, maxAnswerMs: r.maxAnswerMs, maxAnswerCpuMs: r.maxAnswerCpuMs })}\n`);
    await new Promise((res) => setTimeout(res, Math.max(0, 60_000 - (Date.now() - t))));
  }
}

function startWorkerJobs(url: string): {
  ready: Promise<void>;
  stop: () => Promise<void>;
  runs: Array<{ answers: number; ms: number; maxAnswerMs: number; maxAnswerCpuMs: number }>;
} {
  const runs: Array<{ answers: number; ms: number; maxAnswerMs: number; maxAnswerCpuMs: number }> = [];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'api-scale.ts'), '--worker-loop', url], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let first!: () => void;
  const ready = new Promise<void>((r) => (first = r));
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        runs.push(JSON.parse(line) as (typeof runs)[number]);
        first();
      } catch {
        /* not ours */
      }
    }
  });
  child.on('exit', () => first());
  return {
    ready,
    runs,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    },
  };
}

/** CPU (this process: query parsing, decoding, merging, ranking, JSON) and wall time of cold answers. */
interface ColdResult {
  n: number;
  /** CPU of the main thread alone (the answer's own work and its GC pauses), /proc schedstat */
  mainMedianMs: number;
  mainP95Ms: number;
  mainMaxMs: number;
  cpuMedianMs: number;
  cpuP95Ms: number;
  cpuMaxMs: number;
  wallMedianMs: number;
  wallMaxMs: number;
  fromPartials: number;
}

/**
 * CPU time (ns) of this process's main thread so far: /proc/self/task/<pid>/schedstat (field 1).
 * process.cpuUsage counts every thread of the process (V8's concurrent GC and compiler threads,
 * and tsx's module-loader thread, whose own collections landed inside answers), so beside it the
 * bench prints the thread that computes the answer.
 */
function mainThreadCpuNs(): number {
  return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
}

/**
 * Cold answers (nothing cached anywhere: the answer path keeps no window cache, decision 210): `n`
 * questions with varied model, workload, window (24 h / 72 h / 7 d), basis, region (1 in 5 one
 * region) and `at` = a random second of the last 3 days, each computed alone and timed with
 * process.cpuUsage. 10 answers first warm the JIT and are not counted.
 */
async function coldAnswers(url: string, t0: Date, seed: number, n = 100): Promise<ColdResult> {
  const { db, close } = openDb(url, 4);
  const rand = mulberry32(seed);
  const models = ['llama-4-maverick', 'tokenpace-reference'];
  const workloads = SEED_WORKLOADS.filter((w) => w.scheduled).map((w) => w.slug);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const cpu: number[] = [];
  const main: number[] = [];
  const wall: number[] = [];
  let fromPartials = 0;
  // GC pauses of this process (main thread), to tell a collection from the answer's own work.
  const gcs: Array<{ start: number; ms: number }> = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: e.startTime, ms: e.duration });
  });
  obs.observe({ entryTypes: ['gc'] });
  const each: Array<{ cpuMs: number; mainMs: number; wallMs: number; start: number; q: object; asOf: string; source: string }> = [];
  for (let i = 0; i < n + 10; i++) {
    const q = {
      model: pick(models),
      workload: pick(workloads),
      window: pick([24, 72, 168]),
      basis: pick(['reported', 'o200k'] as const),
      region: rand() < 0.2 ? pick(['us-east', 'eu-west']) : null,
    };
    const asOf = new Date(t0.getTime() - Math.floor(rand() * 3 * 86400) * 1000);
    const m0 = mainThreadCpuNs();
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await computeLeaderboardAnswer(db, q, asOf);
    const w = performance.now() - w0;
    const c = process.cpuUsage(c0);
    const mainMs = (mainThreadCpuNs() - m0) / 1e6;
    if (i < 10) continue;
    cpu.push((c.user + c.system) / 1000);
    main.push(mainMs);
    wall.push(w);
    const f = await loadWindowFigures(db, { modelSlug: q.model, workloadSlug: q.workload, asOf, windowHours: q.window, basis: q.basis, region: q.region });
    if (f.source === 'partials') fromPartials++;
    each.push({ cpuMs: (c.user + c.system) / 1000, mainMs, wallMs: w, start: w0, q, asOf: asOf.toISOString(), source: f.source });
  }
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  for (const e of [...each].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 5)) {
    const gcMs = gcs.filter((g) => g.start >= e.start && g.start <= e.start + e.wallMs).reduce((m, g) => m + g.ms, 0);
    log(
      `slowest cold answers: cpu ${e.cpuMs.toFixed(2)} ms (main thread ${e.mainMs.toFixed(2)}), wall ${e.wallMs.toFixed(2)} ms, gc ${gcMs.toFixed(2)} ms, ${e.source}, at ${e.asOf} ${JSON.stringify(e.q)}`,
    );
  }
  await close();
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  return {
    n,
    mainMedianMs: q(main, 0.5),
    mainP95Ms: q(main, 0.95),
    mainMaxMs: Math.max(...main),
    cpuMedianMs: q(cpu, 0.5),
    cpuP95Ms: q(cpu, 0.95),
    cpuMaxMs: Math.max(...cpu),
    wallMedianMs: q(wall, 0.5),
    wallMaxMs: Math.max(...wall),
    fromPartials,
  };
}

interface PhaseResult {
  pingSat: RunResult;
  lbSat: RunResult;
  lbFixedSat: RunResult;
  answerBytes: number;
  rate: number;
  pingLow: RunResult & LoopFigures;
  lbLow: RunResult & LoopFigures;
  snapshots: number;
  duplicateSnapshots: number;
  precompute: { answers: number; ms: number; maxAnswerMs: number; maxAnswerCpuMs: number; warmMaxAnswerCpuMs: number | null } | null;
}

async function benchPhase(label: string, url: string, t0: Date, seed: number): Promise<PhaseResult> {
  const jobs = startWorkerJobs(url);
  await jobs.ready;
  const web = await startWeb(url);
  try {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const before = (await sql<{ n: number }[]>`select count(*)::int as n from snapshots`)[0]!.n;
    log(`[${label}] warm-up 20 s …`);
    await drive({ path: leaderboardPaths(t0, seed * 10 + 1), connections: 20, duration: 20 });
    log(`[${label}] saturation, 100 connections, /api/v1/ping …`);
    const pingSat = await drive({ fixedPath: '/api/v1/ping', connections: 100, duration: DURATION });
    log(`[${label}] saturation, 100 connections, leaderboard …`);
    const lbSat = await drive({ path: leaderboardPaths(t0, seed * 10 + 3), connections: 100, duration: DURATION });
    // One precomputed answer over and over: the cost of its bytes alone, without variety.
    log(`[${label}] saturation, 100 connections, one fixed leaderboard question …`);
    const lbFixedSat = await drive({ fixedPath: '/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k', connections: 100, duration: DURATION });
    const rate = Math.max(10, Math.round(0.4 * pingSat.reqPerSecMean));
    await scrapeLoop();
    log(`[${label}] offered load ${rate} req/s (40 % of ping saturation), ping …`);
    const pingLow = { ...(await drive({ fixedPath: '/api/v1/ping', connections: 50, overallRate: rate, duration: DURATION })), ...(await scrapeLoop()) };
    log(`[${label}] offered load ${rate} req/s, leaderboard …`);
    const lbLow = {
      ...(await drive({ path: leaderboardPaths(t0, seed * 10 + 4), connections: 50, overallRate: rate, duration: DURATION })),
      ...(await scrapeLoop()),
    };
    await new Promise((r) => setTimeout(r, 2000)); // the web's snapshot writer flushes within ~100 ms
    const after = (await sql<{ n: number }[]>`select count(*)::int as n from snapshots`)[0]!.n;
    const dup = (await sql<{ n: number }[]>`select (count(*) - count(distinct md5(body)))::int as n from snapshots`)[0]!.n;
    await sql.end();
    const precompute = jobs.runs.length
      ? {
          ...jobs.runs.reduce((m, r) => (r.ms > m.ms ? r : m)),
          maxAnswerCpuMs: Math.max(...jobs.runs.map((r) => r.maxAnswerCpuMs ?? NaN)),
          warmMaxAnswerCpuMs: jobs.runs.length > 1 ? Math.max(...jobs.runs.slice(1).map((r) => r.maxAnswerCpuMs ?? NaN)) : null,
        }
      : null;
    const bytes = (await (await fetch(`http://127.0.0.1:${WEB_PORT}/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k`)).arrayBuffer()).byteLength;
    const result = { pingSat, lbSat, lbFixedSat, answerBytes: bytes, rate, pingLow, lbLow, snapshots: after - before, duplicateSnapshots: dup, precompute };
    log(`[${label}] result ${JSON.stringify(result)}`);
    return result;
  } finally {
    stopWeb(web);
    await jobs.stop();
    await new Promise((r) => setTimeout(r, 1500));
  }
}

async function main(): Promise<void> {
  let t0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  // --reuse-data: keep the database an earlier run left in DATA_DIR (rows, rollups, partials) and go on from its newest minute.
  const reuse = REUSE_DATA && fs.existsSync(path.join(DATA_DIR, 'pg', 'PG_VERSION'));
  if (!reuse) {
    fs.rmSync(DATA_DIR, { recursive: true, force: true });
    fs.mkdirSync(DATA_DIR, { recursive: true });
    fs.chmodSync(DATA_DIR, 0o777);
  }
  log(`embedded PostgreSQL in ${DATA_DIR} on port ${PG_PORT}${reuse ? ' (reused)' : ''}`);
  let pg: EmbeddedServer | null = await startEmbeddedPostgres({ dataDir: DATA_DIR, port: PG_PORT, database: 'tokenpace_bench' });
  const url = pg.url;
  let sql = postgres(url, { max: 1, onnotice: () => {} });
  if (!reuse) {
    await sql.unsafe(`alter system set shared_buffers = '1GB'; `).catch(() => {});
    await sql.unsafe(`alter system set max_wal_size = '8GB'`);
    await sql.unsafe(`alter system set maintenance_work_mem = '1GB'`);
    await sql.unsafe(`alter system set work_mem = '64MB'`);
    await sql.end();
    await pg.stop();
    pg = await startEmbeddedPostgres({ dataDir: DATA_DIR, port: PG_PORT, database: 'tokenpace_bench' });
    sql = postgres(url, { max: 1, onnotice: () => {} });
  }
  const table: Array<Record<string, string>> = [];
  let untimedRollupRuns = 1;
  try {
    let loaded = 0;
    let nSeries: number;
    if (reuse) {
      const r = (
        await sql<{ t: Date; n: number; rows: string }[]>`
        select max(measured_at) as t, (select count(*)::int from bench_series) as n, (select count(*) from measurements where job_key not like 'bench:minute:%')::text as rows
        from measurements`
      )[0]!;
      t0 = new Date(Math.floor(new Date(r.t).getTime() / 60_000) * 60_000 + 60_000);
      nSeries = r.n;
      loaded = Number(r.rows);
      if (CROSS_HOUR) {
        // The minutes up to the next xx:57 get their probes (the rollup job as of t0 below catches up).
        const next = crossingT0(t0, 1);
        let gap = 0;
        for (let m = t0.getTime(); m < next.getTime(); m += 60_000) gap += await insertMinuteOfProbes(sql, new Date(m));
        if (gap > 0) log(`--cross-hour: ${gap} probes in the ${(next.getTime() - t0.getTime()) / 60_000} minutes up to ${next.toISOString()}`);
        // The rollup job scans ids above the one seen 3 runs back (decision 218): as many runs as of t0, so the gap's rows are not timed again.
        if (gap > 0) untimedRollupRuns = PROGRESS_LAG_RUNS;
        t0 = next;
      }
      log(`${nSeries} series, ${loaded.toLocaleString('en')} rows; going on at t0 = ${t0.toISOString()}`);
    } else {
      if (CROSS_HOUR) t0 = crossingT0(t0, -1);
      nSeries = await setupDatabase(url, sql, t0);
    }
    if (!COLD_ONLY) buildWeb();
    const phases = SIZES.map((rows) => ({ rows, label: sizeLabel(rows) }));
    const results: Record<string, PhaseResult & { rollupSeconds: string; jobSeconds: string }> = {};
    const colds: Record<
      string,
      ColdResult & {
        rows: number;
        partitions: number;
        scanned: number;
        jobCpuMs: number;
        jobWallMs: number;
        precomputeCpuMs: number;
        precomputeWallMs: number;
        answers: number;
      }
    > = {};
    for (const ph of phases) {
      let rollupSeconds = '-';
      if (loaded < ph.rows) {
        log(`[${ph.label}] loading rows ${loaded.toLocaleString('en')} … ${ph.rows.toLocaleString('en')}`);
        await loadRows(sql, nSeries, t0, loaded, ph.rows);
        // A series' k-th row lies (k·SERIES_INTERVAL_S + series·0.9) s before t0 (loadRows): the oldest
        // rows are up to 0.9·nSeries s older than k alone says (2.4 h at 200 endpoints, whose first
        // hours then had partials but no rollups: the first run answered from the rollup fallback
        // without them and minute 1 rewrote every answer, decision 311).
        const oldest = new Date(t0.getTime() - (Math.ceil(ph.rows / nSeries) * SERIES_INTERVAL_S + nSeries) * 1000);
        const newestOfPhase = new Date(t0.getTime() - Math.floor(loaded / nSeries) * SERIES_INTERVAL_S * 1000 + 3600_000);
        rollupSeconds = await buildRollups(url, oldest, newestOfPhase);
        loaded = ph.rows;
      }
      const { db, close } = openDb(url, 2);
      const tj = performance.now();
      for (let i = 0; i < untimedRollupRuns; i++) await runRollupJob(db, t0);
      const jobSeconds = secs(tj);
      // The per-minute freshness work in steady state: one more rollup job (partials of the last
      // two hours included) and the precompute job, wall and CPU of this process.
      const fresh = async <T>(f: () => Promise<T>) => {
        const c0 = process.cpuUsage();
        const w0 = performance.now();
        const r = await f();
        const c = process.cpuUsage(c0);
        return { r, cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() - w0 };
      };
      // Each size times its own minutes after t0: the first size's minutes already hold their
      // probes (their job keys are unique), so the next size goes on after them.
      const { job, pre } = await steadyMinutes(db, sql, new Date(t0.getTime() + phases.indexOf(ph) * STEADY_MINUTES * 60_000), fresh);
      await close();
      const cold = await coldAnswers(url, t0, 100 + phases.indexOf(ph));
      const pruning = await partitionPruning(sql, t0);
      log(`[${ph.label}] partitions: ${pruning.partitions} months + default; a 72 h window reads ${pruning.scanned.join(', ')}`);
      colds[ph.label] = {
        ...cold,
        partitions: pruning.partitions,
        scanned: pruning.scanned.length,
        rows: ph.rows,
        jobCpuMs: job.cpuMs,
        jobWallMs: job.wallMs,
        precomputeCpuMs: pre.cpuMs,
        precomputeWallMs: pre.wallMs,
        answers: pre.r.answers,
      };
      log(`[${ph.label}] cold ${JSON.stringify(colds[ph.label])}`);
      if (COLD_ONLY) continue;
      // A different seed per phase: `at=` requests never repeat an earlier phase's (query, at).
      results[ph.label] = { ...(await benchPhase(ph.label, url, t0, phases.indexOf(ph) + 1)), rollupSeconds, jobSeconds };
    }
    const size = (
      await sql<{ row_bytes: number; timeline_bytes: number; timeline_raw: number; total: string; rows: string }[]>`
        select avg(pg_column_size(m.*))::float8 as row_bytes, avg(pg_column_size(m.timeline))::float8 as timeline_bytes,
               avg(octet_length(m.timeline))::float8 as timeline_raw,
               (select sum(pg_total_relation_size(relid)) from pg_partition_tree('measurements'))::text as total,
               (select count(*) from measurements)::text as rows
        from measurements m where m.id <= 100000 and m.timeline is not null and m.output_tokens_reported = 1000`
    )[0]!;
    const rollupCount = (await sql<{ n: string }[]>`select count(*)::text as n from measurement_rollups`)[0]!.n;
    const f = (n: number, d = 1) => n.toFixed(d);
    for (const [label, r] of Object.entries(results)) {
      table.push({
        rows: label,
        'rollup build s': r.rollupSeconds,
        'rollup job s': r.jobSeconds,
        'precompute: answers / s / max answer ms wall, CPU (cold; warm)': r.precompute
          ? `${r.precompute.answers} / ${f(r.precompute.ms / 1000, 2)} / ${f(r.precompute.maxAnswerMs)}, ${f(r.precompute.maxAnswerCpuMs)}; ${r.precompute.warmMaxAnswerCpuMs === null ? '-' : f(r.precompute.warmMaxAnswerCpuMs)}`
          : '-',
        'sat req/s: ping / leaderboard': `${f(r.pingSat.reqPerSecMean, 0)} / ${f(r.lbSat.reqPerSecMean, 0)}`,
        'sat ratio': f(r.lbSat.reqPerSecMean / r.pingSat.reqPerSecMean, 2),
        'sat req/s: one fixed question (bytes)': `${f(r.lbFixedSat.reqPerSecMean, 0)} (${r.answerBytes} B)`,
        'offered req/s': String(r.rate),
        'ping p50/p99 ms': `${f(r.pingLow.p50)} / ${f(r.pingLow.p99)}`,
        'leaderboard p50/p99 ms': `${f(r.lbLow.p50)} / ${f(r.lbLow.p99)}`,
        'web loop delay p99/max ms (ping | lb)': `${f(r.pingLow.loopP99Ms)}/${f(r.pingLow.loopMaxMs)} | ${f(r.lbLow.loopP99Ms)}/${f(r.lbLow.loopMaxMs)}`,
        'web GC ms (ping | lb)': `${f(r.pingLow.gcMs, 0)} | ${f(r.lbLow.gcMs, 0)}`,
        'non-2xx/errors': `${r.lbSat.non2xx + r.lbLow.non2xx + r.pingSat.non2xx + r.pingLow.non2xx}/${r.lbSat.errors + r.lbLow.errors + r.pingSat.errors + r.pingLow.errors}`,
        'snapshots written / duplicates': `${r.snapshots} / ${r.duplicateSnapshots}`,
      });
    }
    const coldRows = Object.entries(colds);
    const probedEndpoints = (await sql<{ n: number }[]>`select count(distinct endpoint_id)::int as n from bench_series`)[0]!.n;
    console.log(
      `\nCold answers (no cache; ${coldRows[0]?.[1].n ?? 0} random questions × random at= second of the last 3 days each), and the per-minute freshness work; load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}\n`,
    );
    console.table(
      coldRows.map(([label, c]) => ({
        rows: label,
        'cold answer CPU ms median / p95 / max, main thread': `${f(c.mainMedianMs, 2)} / ${f(c.mainP95Ms, 2)} / ${f(c.mainMaxMs, 2)}`,
        'same, whole process (+ GC/JIT/loader threads)': `${f(c.cpuMedianMs, 2)} / ${f(c.cpuP95Ms, 2)} / ${f(c.cpuMaxMs, 2)}`,
        'cold answer wall ms median / max': `${f(c.wallMedianMs, 2)} / ${f(c.wallMaxMs, 2)}`,
        'from partials': `${c.fromPartials}/${c.n}`,
        'monthly partitions (read by a 72 h window)': `${c.partitions} (${c.scanned})`,
        'per-minute rollup job (with partials) ms wall / CPU': `${f(c.jobWallMs, 0)} / ${f(c.jobCpuMs, 0)}`,
        'precompute ms wall / CPU (answers)': `${f(c.precomputeWallMs, 0)} / ${f(c.precomputeCpuMs, 0)} (${c.answers})`,
      })),
    );
    const coldChecks: Array<[string, string, boolean]> = [];
    for (const [label, c] of coldRows) {
      coldChecks.push([
        `cold answer CPU (main thread), ${label}`,
        `median ${f(c.mainMedianMs, 2)} ms (≤ 5), max ${f(c.mainMaxMs, 2)} ms (≤ 20)`,
        c.mainMedianMs <= 5 && c.mainMaxMs <= 20,
      ]);
      coldChecks.push([
        `cold answer CPU (whole process), ${label}`,
        `median ${f(c.cpuMedianMs, 2)} ms (≤ 5), max ${f(c.cpuMaxMs, 2)} ms (≤ 20)`,
        c.cpuMedianMs <= 5 && c.cpuMaxMs <= 20,
      ]);
      // Issue 24: ≤ 1 s per minute at the bench's 14 endpoints, ≤ 5 s at 200 (the slowest timed minute; wall and this process's CPU).
      const limitS = ENDPOINTS > 14 ? 5 : 1;
      coldChecks.push([
        `per-minute freshness work (slowest of ${STEADY_MINUTES} minutes), ${label}, ${probedEndpoints} endpoints`,
        `${f((c.jobWallMs + c.precomputeWallMs) / 1000, 2)} s wall, ${f((c.jobCpuMs + c.precomputeCpuMs) / 1000, 2)} s CPU (≤ ${limitS} s)`,
        c.jobWallMs + c.precomputeWallMs <= limitS * 1000,
      ]);
    }
    if (coldRows.length > 1) {
      const [l1, c1] = coldRows[0]!;
      const [lN, cN] = coldRows[coldRows.length - 1]!;
      const slope = (cN.cpuMedianMs - c1.cpuMedianMs) / ((cN.rows - c1.rows) / 1e6);
      coldChecks.push([
        `cold answer CPU slope ${l1} → ${lN}`,
        `${f(slope, 4)} ms per million rows (median ${f(c1.cpuMedianMs, 2)} → ${f(cN.cpuMedianMs, 2)} ms)`,
        Math.abs(slope) * 100 <= 5,
      ]);
      // A year of a large catalog: 500 endpoints × 5 regions, every 2 min per workload (4) ≈ 2.6e9 rows/year.
      const yearRows = 500 * 5 * 4 * (365 * 720);
      coldChecks.push([
        `projection: cold answer CPU at a year of 500 endpoints × 5 regions (${(yearRows / 1e9).toFixed(1)}e9 rows) from the row slope`,
        `${f(cN.cpuMedianMs + slope * ((yearRows - cN.rows) / 1e6), 2)} ms (target ≤ 5; a valid slope needs every size to hold ≥ 7 days of data, the longest window asked: ${l1} holds ${f(((c1.rows / nSeries) * SERIES_INTERVAL_S) / 86400, 1)} days)`,
        cN.cpuMedianMs + slope * ((yearRows - cN.rows) / 1e6) <= 5,
      ]);
    }
    console.table(coldChecks.map(([what, value, ok]) => ({ target: what, value, met: ok ? 'met' : 'NOT met' })));
    const ret = await retentionCost(sql);
    if (ret)
      console.log(
        `\nretention (decision 217): DELETE of one day (${ret.dayRows.toLocaleString('en')} rows) ${f(ret.deleteMs, 0)} ms; then DROP of that month's partition ${ret.partition} with the rest of its rows (${(ret.partitionRows - ret.dayRows).toLocaleString('en')}) ${f(ret.dropMs, 0)} ms`,
      );
    if (COLD_ONLY) return;
    console.log(
      `\nTokenpace API scale benchmark (synthetic data; GET /api/v1/leaderboard with varied model/workload/window/basis, ${f(AT_SHARE * 100, 0)} % with at=)\n`,
    );
    console.table(table);
    const r1 = results[phases[0]!.label]!;
    const rN = results[phases[phases.length - 1]!.label]!;
    const checks: Array<[string, string, boolean]> = [];
    for (const [label, r] of Object.entries(results)) {
      // A run with refused or failed requests measured something else than answers: never met.
      const failedOf = (x: RunResult) => (x.non2xx + x.errors > 0 ? `; ${x.non2xx} non-2xx, ${x.errors} errors of ${x.total}` : '');
      const sat = r.lbSat.reqPerSecMean / r.pingSat.reqPerSecMean;
      const satFailed = failedOf(r.lbSat) + failedOf(r.pingSat);
      checks.push([`saturation leaderboard / ping, ${label}`, `${f(sat, 2)}× (target ≥ 0.9)${satFailed}`, sat >= 0.9 && !satFailed]);
      const tail = r.lbLow.p99 / r.pingLow.p99;
      const lowFailed = failedOf(r.lbLow) + failedOf(r.pingLow);
      checks.push([
        `p99 at ${r.rate} req/s (40 % of ping sat), leaderboard / ping, ${label}`,
        `${f(r.lbLow.p99)} / ${f(r.pingLow.p99)} ms = ${f(tail, 2)}× (target ≤ 1.5)${lowFailed}`,
        tail <= 1.5 && !lowFailed,
      ]);
      checks.push([
        `snapshot rows per distinct answer, ${label}`,
        `${r.duplicateSnapshots} duplicates in ${r.snapshots} rows written (target 0)`,
        r.duplicateSnapshots === 0,
      ]);
    }
    if (phases.length > 1) {
      const ratio50 = rN.lbLow.p50 / r1.lbLow.p50;
      const ratio99 = rN.lbLow.p99 / r1.lbLow.p99;
      checks.push([
        `leaderboard latency ratio ${phases[phases.length - 1]!.label}/${phases[0]!.label} (p50, p99)`,
        `${f(ratio50, 2)}, ${f(ratio99, 2)} (target ≤ 1.2)`,
        ratio50 <= 1.2 && ratio99 <= 1.2,
      ]);
    }
    checks.push([
      'bytes per measurement with 1,000-token timeline',
      `${f(size.row_bytes, 0)} B row (timeline ${f(size.timeline_raw, 0)} B encoded, ${f(size.timeline_bytes, 0)} B stored) (target ≤ 2048)`,
      size.row_bytes <= 2048,
    ]);
    console.log('');
    console.table(checks.map(([what, value, ok]) => ({ target: what, value, met: ok ? 'met' : 'NOT met' })));
    for (const [label, r] of Object.entries(results)) {
      if (r.lbLow.p99 > 50) {
        console.log(
          `${label}: leaderboard p99 ${f(r.lbLow.p99)} ms > 50 ms — web event-loop delay p99 ${f(r.lbLow.loopP99Ms)} ms, max ${f(r.lbLow.loopMaxMs)} ms; web GC ${f(r.lbLow.gcMs, 0)} ms in ${DURATION} s; ping at the same load p99 ${f(r.pingLow.p99)} ms (loop max ${f(r.pingLow.loopMaxMs)} ms)`,
        );
      }
    }
    console.log(
      `\nmeasurements: ${Number(size.rows).toLocaleString('en')} rows, ${(Number(size.total) / 2 ** 20).toFixed(0)} MiB with indexes and TOAST; rollup rows: ${Number(rollupCount).toLocaleString('en')}`,
    );
  } finally {
    await sql.end().catch(() => {});
    await pg.stop().catch(() => {});
  }
}

(args.includes('--worker-loop') ? workerLoop(args[args.indexOf('--worker-loop') + 1]!) : main()).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
