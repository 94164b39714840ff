import { notRankableReasonsSql, rankableSql } from './disputes';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { deleteInBatches } from './delete-in-batches';
import { packSketchJson, SKETCH_VERSION } from '@/lib/stats/sketch';
import { rebuildWindowPartials } from './window-partials';
import { sketchBinSql } from './sketch-bucket-sql';
import { cachedInputShareSql } from './cached-input-share-sql';

/** Metrics summarised in rollups, by TypeScript name → column of the rollup's base rows (a measurements column, or one computed there). */
export const ROLLUP_METRICS = {
  ttftMs: 'ttft_ms',
  ttfatMs: 'ttfat_ms',
  e2eMs: 'e2e_ms',
  outputTokensPerSecond: 'output_tokens_per_second',
  outputTokensPerSecondO200k: 'output_tokens_per_second_o200k',
  itlP50Ms: 'itl_p50_ms',
  itlP95Ms: 'itl_p95_ms',
  cachedInputTokens: 'cached_input_tokens',
  tierObjectiveMet: 'tier_objective_met',
  // computed in the base rows from two columns (db/queries/cached-input-share-sql, decision 291)
  cachedInputShare: 'cached_input_share',
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

/**
 * Recomputes the hourly or daily rollup buckets whose start lies in [from, to) from raw
 * measurements, in one INSERT … SELECT … ON CONFLICT per chunk of at most one day (hour buckets) or
 * 31 days (day buckets), so re-running is safe and a rebuild equals the incremental result.
 *
 * Each row: count (all probes), successes, error_kinds {kind: count}, sketches {metric: {bucket:
 * count}, _: {v, lastMeasuredAtMs}} (lib/stats/sketch, mergeable, bucket function
 * `sketch_version`), and excluded {total, byReason} (measurements not rankable, by reason). Sketches cover rankable
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

/** (workload, endpoint) pairs a rebuild is limited to (decision 311): parallel arrays. */
interface Pairs {
  workloadIds: readonly number[];
  endpointIds: readonly number[];
}

const pairsOf = (list: ReadonlyArray<{ workloadId: number; endpointId: number }>): Pairs => ({
  workloadIds: list.map((x) => x.workloadId),
  endpointIds: list.map((x) => x.endpointId),
});

/** SQL filter `(alias.workload_id, alias.endpoint_id)` in the pairs. */
function pairFilter(alias: string, p: Pairs) {
  return sql`(${sql.raw(alias)}.workload_id, ${sql.raw(alias)}.endpoint_id) in (select * from unnest(${`{${p.workloadIds.join(',')}}`}::int[], ${`{${p.endpointIds.join(',')}}`}::int[]))`;
}

async function rebuildChunk(db: Db, g: Granularity, from: Date, to: Date, workloadIds?: readonly number[], pairs?: Pairs): Promise<number> {
  const unit = sql.raw(`'${g}'`);
  const metricNames = Object.keys(ROLLUP_METRICS) as RollupMetric[];
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
             m.itl_p50_ms, m.itl_p95_ms, m.cached_input_tokens, m.tier_objective_met, ${cachedInputShareSql('m')} as cached_input_share, m.fidelity_passed
      from measurements m
      where m.workload_id = any(${workloadIds ? sql`${`{${workloadIds.join(',')}}`}::int[]` : sql`array(select id from workloads)`})
        and m.measured_at >= ${from.toISOString()}::timestamptz and m.measured_at < ${to.toISOString()}::timestamptz
        ${pairs ? sql`and ${pairFilter('m', pairs)}` : sql``}
    ),
    agg as (
      select ${keys}, count(*)::int as count, (count(*) filter (where b.outcome = 'success'))::int as successes,
             (count(*) filter (where not b.rankable))::int as not_rankable_total, max(b.measured_at) as last_at,
             (count(*) filter (where b.fidelity_passed is not null))::int as fidelity_checks, (count(*) filter (where b.fidelity_passed))::int as fidelity_passed
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
    insert into measurement_rollups (granularity, bucket_start, endpoint_id, workload_id, worker_region, count, successes, error_kinds, sketches, sketch_version, excluded, updated_at)
    select ${g}, a.bucket_start, a.endpoint_id, a.workload_id, a.worker_region, a.count, a.successes,
           coalesce(k.error_kinds, '{}'::jsonb),
           coalesce(sk.sketches, '{}'::jsonb) || jsonb_build_object('_', jsonb_build_object('v', ${SKETCH_VERSION}::int, 'lastMeasuredAtMs', floor(extract(epoch from a.last_at) * 1000)::bigint, 'fidelityChecks', a.fidelity_checks, 'fidelityPassed', a.fidelity_passed)),
           ${SKETCH_VERSION}::smallint,
           jsonb_build_object('total', a.not_rankable_total, 'byReason', coalesce(x.by_reason, '{}'::jsonb)),
           now()
    from agg a
    left join kinds k using (bucket_start, endpoint_id, workload_id, worker_region)
    left join sk using (bucket_start, endpoint_id, workload_id, worker_region)
    left join excl x using (bucket_start, endpoint_id, workload_id, worker_region)
    on conflict (granularity, bucket_start, endpoint_id, workload_id, worker_region)
    do update set count = excluded.count, successes = excluded.successes,
                  error_kinds = excluded.error_kinds, sketches = excluded.sketches,
                  sketch_version = excluded.sketch_version, excluded = excluded.excluded, updated_at = now()
    returning 1
  `)) as unknown as unknown[];
  return rows.length;
}

/** The additive columns of one rollup row (JSON as stored). */
interface RollupSums {
  endpoint_id: number;
  workload_id: number;
  worker_region: string;
  count: number;
  successes: number;
  error_kinds: Record<string, number>;
  sketches: Record<string, Record<string, number>>;
  excluded: { total: number; byReason: Record<string, number> };
  sketch_version: number;
}

async function listRollupSums(db: Db, g: Granularity, startMs: number, pairs: Pairs): Promise<Map<string, RollupSums>> {
  const rows = (await db.execute(sql`
    select endpoint_id, workload_id, worker_region, count, successes, error_kinds, sketches, excluded, sketch_version
    from measurement_rollups r
    where granularity = ${g} and bucket_start = ${new Date(startMs).toISOString()}::timestamptz and ${pairFilter('r', pairs)}
  `)) as unknown as RollupSums[];
  return new Map(rows.map((r) => [`${r.endpoint_id}|${r.workload_id}|${r.worker_region}`, r]));
}

/** a + sign·b on {key: count} objects, zero entries dropped. */
function addCounts(a: Record<string, number> | undefined, b: Record<string, number> | undefined, sign: 1 | -1): Record<string, number> {
  const out: Record<string, number> = { ...(a ?? {}) };
  for (const [k, v] of Object.entries(b ?? {})) {
    const n = (out[k] ?? 0) + sign * Number(v);
    if (n === 0) delete out[k];
    else out[k] = n;
  }
  return out;
}

/**
 * Rebuilds from raw the hourly buckets of the given hours, each for the given (workload, endpoint)
 * pairs only (the per-minute job's buckets that received measurements, decisions 217 and 311: a
 * rollup row is per endpoint, workload and region, so only the rows of the pairs that took new
 * measurements can differ from a rebuild, and only those are read, rebuilt and moved), and moves each day bucket
 * holding them by the difference (new hour − old hour): counts, successes, error kinds, excluded
 * counts, fidelity counts and sketch buckets are sums, and the newest measured time only grows,
 * so the day row equals a rebuild from raw, touching only the rebuilt hours' rows. A day with a
 * row of an older sketch version is rebuilt from raw instead. Returns the hourly and daily buckets written.
 */
export async function rebuildRollupsOf(
  db: Db,
  hours: ReadonlyMap<number, ReadonlyArray<{ workloadId: number; endpointId: number }>>,
): Promise<{ hourBuckets: number; dayBuckets: number }> {
  let hourBuckets = 0;
  let dayBuckets = 0;
  for (const [startMs, list] of hours) {
    if (list.length === 0) continue;
    const pairs = pairsOf(list);
    const workloadIds = [...new Set(pairs.workloadIds)].sort((a, b) => a - b);
    const dayMs = floorBucket(new Date(startMs), 'day').getTime();
    const before = await listRollupSums(db, 'hour', startMs, pairs);
    hourBuckets += await rebuildChunk(db, 'hour', new Date(startMs), new Date(startMs + BUCKET_MS.hour), workloadIds, pairs);
    const after = await listRollupSums(db, 'hour', startMs, pairs);
    const days = await listRollupSums(db, 'day', dayMs, pairs);
    const rows = [...days.values(), ...before.values(), ...after.values()];
    if (rows.some((r) => Number(r.sketch_version) !== SKETCH_VERSION)) {
      dayBuckets += await rebuildChunk(db, 'day', new Date(dayMs), new Date(dayMs + BUCKET_MS.day), workloadIds, pairs);
      continue;
    }
    const values = [];
    for (const [k, b] of after) {
      const a = before.get(k);
      if (
        a &&
        JSON.stringify([a.count, a.successes, a.error_kinds, a.sketches, a.excluded]) ===
          JSON.stringify([b.count, b.successes, b.error_kinds, b.sketches, b.excluded])
      )
        continue;
      const d = days.get(k);
      const metaOf = (r: RollupSums | undefined) => (r?.sketches._ ?? {}) as { lastMeasuredAtMs?: number; fidelityChecks?: number; fidelityPassed?: number };
      const sketches: Record<string, unknown> = {};
      const metrics = new Set([...Object.keys(d?.sketches ?? {}), ...Object.keys(b.sketches)].filter((m) => m !== '_'));
      for (const m of metrics) {
        const merged = addCounts(addCounts(d?.sketches[m], a?.sketches[m], -1), b.sketches[m], 1);
        if (Object.keys(merged).length > 0) sketches[m] = merged;
      }
      const lasts = [metaOf(d).lastMeasuredAtMs, metaOf(b).lastMeasuredAtMs].filter((x): x is number => typeof x === 'number').map(Number);
      const sum = (f: (r: RollupSums | undefined) => number) => f(d) - f(a) + f(b);
      sketches._ = {
        v: SKETCH_VERSION,
        lastMeasuredAtMs: lasts.length ? Math.max(...lasts) : null,
        fidelityChecks: sum((r) => Number(metaOf(r).fidelityChecks ?? 0)),
        fidelityPassed: sum((r) => Number(metaOf(r).fidelityPassed ?? 0)),
      };
      const excluded = {
        total: sum((r) => Number(r?.excluded?.total ?? 0)),
        byReason: addCounts(addCounts(d?.excluded?.byReason, a?.excluded?.byReason, -1), b.excluded?.byReason, 1),
      };
      values.push(
        sql`('day', ${new Date(dayMs).toISOString()}::timestamptz, ${b.endpoint_id}::int, ${b.workload_id}::int, ${b.worker_region}::text,
             ${sum((r) => Number(r?.count ?? 0))}::int, ${sum((r) => Number(r?.successes ?? 0))}::int,
             ${JSON.stringify(addCounts(addCounts(d?.error_kinds, a?.error_kinds, -1), b.error_kinds, 1))}::jsonb, ${JSON.stringify(sketches)}::jsonb,
             ${SKETCH_VERSION}::smallint, ${JSON.stringify(excluded)}::jsonb, now())`,
      );
    }
    if (values.length === 0) continue;
    const written = (await db.execute(sql`
      insert into measurement_rollups (granularity, bucket_start, endpoint_id, workload_id, worker_region, count, successes, error_kinds, sketches, sketch_version, excluded, updated_at)
      values ${sql.join(values, sql`, `)}
      on conflict (granularity, bucket_start, endpoint_id, workload_id, worker_region)
      do update set count = excluded.count, successes = excluded.successes, error_kinds = excluded.error_kinds, sketches = excluded.sketches,
                    sketch_version = excluded.sketch_version, excluded = excluded.excluded, updated_at = now()
      returning 1`)) as unknown as unknown[];
    dayBuckets += written.length;
  }
  return { hourBuckets, dayBuckets };
}

/** Start of the newest hourly rollup bucket, or null when there is none (index-only lookup). */
export async function getLatestRollupHour(db: Db): Promise<Date | null> {
  const rows = (await db.execute(sql`select max(bucket_start) as t from measurement_rollups where granularity = 'hour'`)) as unknown as Array<{
    t: string | Date | null;
  }>;
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
 * rows so no statement holds locks for long (their job keys go with them: trigger of migration 0024).
 * Returns the number of rows deleted. Callers must have
 * rolled the range up first (workers/tasks/apply-retention.ts does).
 */
export async function deleteMeasurementsInRange(db: Db, params: { from: Date; to: Date; batchSize?: number }): Promise<number> {
  return deleteInBatches(
    db,
    params.batchSize ?? 20_000,
    (limit) => sql`
      delete from measurements where id in (
        select m.id from measurements m
        where m.workload_id = any(array(select id from workloads))
          and m.measured_at >= ${params.from.toISOString()}::timestamptz and m.measured_at < ${params.to.toISOString()}::timestamptz
        limit ${limit}
      ) returning 1
    `,
  );
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
