import { notRankableReasonsSql, rankableSql } from './disputes';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { packSketchJson, SKETCH_LN_GAMMA, SKETCH_VERSION } from '@/lib/stats/sketch';
import { RAW_ZERO } from '@/lib/stats/window-stats';
import { rebuildWindowPartials } from './window-partials';

/** Metrics summarised in rollups, by TypeScript name → measurements column. */
export const ROLLUP_METRICS = {
  ttftMs: 'ttft_ms',
  ttfatMs: 'ttfat_ms',
  e2eMs: 'e2e_ms',
  outputTokensPerSecond: 'output_tokens_per_second',
  outputTokensPerSecondO200k: 'output_tokens_per_second_o200k',
  itlP50Ms: 'itl_p50_ms',
  itlP95Ms: 'itl_p95_ms',
} as const;
export type RollupMetric = keyof typeof ROLLUP_METRICS;

/** Rollup bucket sizes. */
export type Granularity = 'hour' | 'day';
const BUCKET_MS: Record<Granularity, number> = { hour: 3600_000, day: 86400_000 };

/** Start of the UTC bucket containing `t`. */
export function floorBucket(t: Date, g: Granularity): Date {
  return new Date(Math.floor(t.getTime() / BUCKET_MS[g]) * BUCKET_MS[g]);
}

/** Smallest UTC bucket start ≥ `t`. */
export function ceilBucket(t: Date, g: Granularity): Date {
  return new Date(Math.ceil(t.getTime() / BUCKET_MS[g]) * BUCKET_MS[g]);
}

type SqlExpr = ReturnType<typeof sql.raw> | ReturnType<typeof sql>;

/** ⌈ln x / ln γ⌉ (lib/stats/sketch sketchIndex) in SQL, with ln γ passed as the exact double the TypeScript side uses. */
function lnBucketSql(x: SqlExpr) {
  return sql`ceil(ln(${x}) / ${sql.raw(String(SKETCH_LN_GAMMA))}::float8)`;
}

/** The SQL bucket expression of lib/stats/sketch as a JSON key: the index as text, 'z' for x ≤ 0. */
export function sketchBinSql(x: SqlExpr) {
  return sql`case when ${x} <= 0 then 'z' else ${lnBucketSql(x)}::bigint::text end`;
}

/** The same bucket as an int (lib/stats/window-stats RawRows bins): RAW_ZERO for x ≤ 0, null for null. */
export function sketchIndexSql(x: SqlExpr) {
  return sql`case when ${x} <= 0 then ${sql.raw(String(RAW_ZERO))} else ${lnBucketSql(x)}::int end`;
}

/**
 * Recomputes the hourly or daily rollup buckets whose start lies in [from, to) from raw
 * measurements, in one INSERT … SELECT … ON CONFLICT per chunk of at most one day (hour buckets) or
 * 31 days (day buckets), so re-running is safe and a rebuild equals the incremental result.
 *
 * Each row: count (all probes), successes, error_kinds {kind: count}, stats {metric: {p5..p95}}
 * (Postgres percentile_cont = type 7, exact) and sketches {metric: {bucket: count}, _: {v,
 * lastMeasuredAtMs}} (lib/stats/sketch, mergeable, bucket function `sketch_version`), and excluded
 * {total, byReason} (measurements not rankable, by reason). Percentiles and sketches cover rankable
 * measurements (measurements.rankable: successful, valid, no contradicting flag; decision 060)
 * with the metric present. Hourly rebuilds also rebuild the window partials of the range (up to
 * `wallNow`, default now; db/queries/window-partials). Buckets without measurements are not written (and
 * existing rows are kept: raw data past retention may be gone while its rollups remain).
 * Returns the number of buckets written.
 */
export async function rebuildRollups(db: Db, params: { granularity: Granularity; from: Date; to: Date; wallNow?: Date }): Promise<number> {
  const g = params.granularity;
  const start = floorBucket(params.from, g);
  const end = ceilBucket(params.to, g);
  const chunk = g === 'hour' ? BUCKET_MS.day : 31 * BUCKET_MS.day;
  let written = 0;
  for (let t = start.getTime(); t < end.getTime(); t += chunk) {
    written += await rebuildChunk(db, g, new Date(t), new Date(Math.min(t + chunk, end.getTime())));
  }
  // The window partials of the same range (decision 210) are rebuilt with the hourly buckets, so
  // every caller that keeps rollups current keeps the partials current too.
  if (g === 'hour') await rebuildWindowPartials(db, { from: start, to: end, wallNow: params.wallNow });
  return written;
}

async function rebuildChunk(db: Db, g: Granularity, from: Date, to: Date): Promise<number> {
  const unit = sql.raw(`'${g}'`);
  const metricNames = Object.keys(ROLLUP_METRICS) as RollupMetric[];
  const pcts = metricNames.map(
    (name) =>
      sql`percentile_cont(array[0.05,0.25,0.5,0.75,0.95]) within group (order by b.${sql.raw(ROLLUP_METRICS[name])}) filter (where b.outcome = 'success' and b.valid and b.rankable and b.${sql.raw(ROLLUP_METRICS[name])} is not null) as ${sql.identifier(`p_${name}`)}`,
  );
  const statsObj = sql.join(
    metricNames.map((name) => {
      const a = sql.identifier(`p_${name}`);
      return sql`${name}::text, case when a.${a} is null then null else jsonb_build_object('p5', a.${a}[1], 'p25', a.${a}[2], 'p50', a.${a}[3], 'p75', a.${a}[4], 'p95', a.${a}[5]) end`;
    }),
    sql`, `,
  );
  const values = sql.join(
    metricNames.map((name) => sql`(${name}::text, b.${sql.raw(ROLLUP_METRICS[name])})`),
    sql`, `,
  );
  const keys = sql`bucket_start, endpoint_id, workload_id, worker_region`;
  const rows = (await db.execute(sql`
    with base as (
      select date_trunc(${unit}, m.measured_at, 'UTC') as bucket_start, m.endpoint_id, m.workload_id, m.worker_region,
             m.outcome, m.valid, ${rankableSql('m')} as rankable, ${notRankableReasonsSql('m')} as not_rankable_reasons, m.error_kind, m.measured_at,
             m.ttft_ms, m.ttfat_ms, m.e2e_ms, m.output_tokens_per_second, m.output_tokens_per_second_o200k,
             m.itl_p50_ms, m.itl_p95_ms, m.fidelity_passed
      from measurements m
      where m.workload_id = any(array(select id from workloads))
        and m.measured_at >= ${from.toISOString()}::timestamptz and m.measured_at < ${to.toISOString()}::timestamptz
    ),
    agg as (
      select ${keys}, count(*)::int as count, (count(*) filter (where b.outcome = 'success'))::int as successes,
             (count(*) filter (where not b.rankable))::int as excluded_total, max(b.measured_at) as last_at,
             (count(*) filter (where b.fidelity_passed is not null))::int as fidelity_checks, (count(*) filter (where b.fidelity_passed))::int as fidelity_passed,
             ${sql.join(pcts, sql`, `)}
      from base b group by 1, 2, 3, 4
    ),
    excl_r as (
      select ${keys}, r.reason, count(*)::int as n
      from base b cross join lateral unnest(b.not_rankable_reasons) r(reason)
      where not b.rankable group by 1, 2, 3, 4, 5
    ),
    excl as (select ${keys}, jsonb_object_agg(reason, n) as by_reason from excl_r group by 1, 2, 3, 4),
    kinds as (
      select ${keys}, jsonb_object_agg(error_kind, n) as error_kinds
      from (select ${keys}, b.error_kind, count(*)::int as n from base b where b.error_kind is not null group by 1, 2, 3, 4, 5) k
      group by 1, 2, 3, 4
    ),
    bins as (
      select ${keys}, metric, jsonb_object_agg(bin, n) as sketch
      from (
        select b.bucket_start, b.endpoint_id, b.workload_id, b.worker_region, v.metric, ${sketchBinSql(sql`v.x`)} as bin, count(*)::int as n
        from base b cross join lateral (values ${values}) v(metric, x)
        where b.outcome = 'success' and b.valid and b.rankable and v.x is not null
        group by 1, 2, 3, 4, 5, 6
      ) q
      group by 1, 2, 3, 4, 5
    ),
    sk as (select ${keys}, jsonb_object_agg(metric, sketch) as sketches from bins group by 1, 2, 3, 4)
    insert into measurement_rollups (granularity, bucket_start, endpoint_id, workload_id, worker_region, count, successes, stats, error_kinds, sketches, sketch_version, excluded, updated_at)
    select ${g}, a.bucket_start, a.endpoint_id, a.workload_id, a.worker_region, a.count, a.successes,
           jsonb_build_object(${statsObj}),
           coalesce(k.error_kinds, '{}'::jsonb),
           coalesce(sk.sketches, '{}'::jsonb) || jsonb_build_object('_', jsonb_build_object('v', ${SKETCH_VERSION}::int, 'lastMeasuredAtMs', floor(extract(epoch from a.last_at) * 1000)::bigint, 'fidelityChecks', a.fidelity_checks, 'fidelityPassed', a.fidelity_passed)),
           ${SKETCH_VERSION}::smallint,
           jsonb_build_object('total', a.excluded_total, 'byReason', coalesce(x.by_reason, '{}'::jsonb)),
           now()
    from agg a
    left join kinds k using (bucket_start, endpoint_id, workload_id, worker_region)
    left join sk using (bucket_start, endpoint_id, workload_id, worker_region)
    left join excl x using (bucket_start, endpoint_id, workload_id, worker_region)
    on conflict (granularity, bucket_start, endpoint_id, workload_id, worker_region)
    do update set count = excluded.count, successes = excluded.successes, stats = excluded.stats,
                  error_kinds = excluded.error_kinds, sketches = excluded.sketches,
                  sketch_version = excluded.sketch_version, excluded = excluded.excluded, updated_at = now()
    returning 1
  `)) as unknown as unknown[];
  return rows.length;
}

/** Start of the newest hourly rollup bucket, or null when there is none (index-only lookup). */
export async function getLatestRollupHour(db: Db): Promise<Date | null> {
  const rows = (await db.execute(sql`select max(bucket_start) as t from measurement_rollups where granularity = 'hour'`)) as unknown as Array<{ t: string | Date | null }>;
  const t = rows[0]?.t;
  return t ? new Date(t) : null;
}

/** measured_at of the oldest measurement, or null (one index probe per workload). */
export async function getOldestMeasurementTime(db: Db): Promise<Date | null> {
  const rows = (await db.execute(sql`
    select min(x) as t from (select (select min(m.measured_at) from measurements m where m.workload_id = w.id) as x from workloads w) q
  `)) as unknown as Array<{ t: string | Date | null }>;
  const t = rows[0]?.t;
  return t ? new Date(t) : null;
}

/**
 * Deletes raw measurements with measured_at in [from, to) (retention), in batches of `batchSize`
 * rows so no statement holds locks for long. Returns the number of rows deleted. Callers must have
 * rolled the range up first (workers/tasks/apply-retention.ts does).
 */
export async function deleteMeasurementsInRange(db: Db, params: { from: Date; to: Date; batchSize?: number }): Promise<number> {
  const batch = params.batchSize ?? 20_000;
  let total = 0;
  for (;;) {
    const rows = (await db.execute(sql`
      delete from measurements where id in (
        select m.id from measurements m
        where m.workload_id = any(array(select id from workloads))
          and m.measured_at >= ${params.from.toISOString()}::timestamptz and m.measured_at < ${params.to.toISOString()}::timestamptz
        limit ${batch}
      ) returning 1
    `)) as unknown as unknown[];
    total += rows.length;
    if (rows.length < batch) return total;
  }
}

/**
 * Start of the newest rollup bucket (hour or day) whose sketches predate SKETCH_VERSION, with
 * bucket start < `before` when given; null when none (partial index rollups_stale_sketch_idx).
 */
export async function getNewestStaleSketchBucket(db: Db, before: Date | null): Promise<Date | null> {
  const cond = before ? sql`and bucket_start < ${before.toISOString()}::timestamptz` : sql``;
  const rows = (await db.execute(sql`
    select max(bucket_start) as t from measurement_rollups where sketch_version < ${SKETCH_VERSION} ${cond}
  `)) as unknown as Array<{ t: string | Date | null }>;
  const t = rows[0]?.t;
  return t ? new Date(t) : null;
}

/**
 * Re-keys, in place, the sketches of rollup rows with bucket start in [from, to) that still carry
 * an older sketch version (rows whose raw measurements are gone, so a rebuild could not replace
 * them): each old bucket moves to the current bucket of its representative value, keeping the old
 * accuracy (lib/stats/sketch packSketchJson). Returns the number of rows re-keyed.
 */
export async function rekeyStaleSketches(db: Db, p: { from: Date; to: Date }): Promise<number> {
  const rows = (await db.execute(sql`
    select id, sketches, sketch_version from measurement_rollups
    where sketch_version < ${SKETCH_VERSION} and bucket_start >= ${p.from.toISOString()}::timestamptz and bucket_start < ${p.to.toISOString()}::timestamptz
  `)) as unknown as Array<{ id: number; sketches: Record<string, Record<string, number>>; sketch_version: number }>;
  for (const r of rows) {
    const out: Record<string, unknown> = {};
    for (const [metric, json] of Object.entries(r.sketches)) {
      if (metric === '_') {
        out._ = { ...json, v: SKETCH_VERSION };
        continue;
      }
      const packed = packSketchJson(json, Number(r.sketch_version));
      const s: Record<string, number> = {};
      if (packed.zeros > 0) s.z = packed.zeros;
      packed.keys.forEach((k, j) => (s[String(k)] = packed.counts[j]!));
      out[metric] = s;
    }
    await db.execute(sql`update measurement_rollups set sketches = ${JSON.stringify(out)}::jsonb, sketch_version = ${SKETCH_VERSION} where id = ${r.id}`);
  }
  return rows.length;
}
