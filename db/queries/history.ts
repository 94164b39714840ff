/**
 * History series read from rollups (never from raw measurements, so the cost grows with the range
 * asked for, not with the data kept): an endpoint's hourly or daily buckets, and a model's daily
 * medians per endpoint, each with change points (lib/stats/change-points) on the daily medians.
 */
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurementRollups, models, providers, workloads } from '../schema';
import { detectChangePoints, formatChange } from '@/lib/stats/change-points';
import { createSketch, mergeSketchJson, sketchSummary, type SketchJson } from '@/lib/stats/sketch';
import type { Percentiles } from './leaderboard';

type Stats = Record<string, Record<string, number> | null>;
type Sketches = Record<string, Record<string, number>>;
const METRICS = ['outputTokensPerSecond', 'outputTokensPerSecondO200k', 'ttftMs', 'ttfatMs', 'e2eMs'] as const;
type Metric = (typeof METRICS)[number];

/** One history bucket (all regions merged unless a region was asked for). */
export interface HistoryPoint {
  /** bucket start, ISO UTC */
  bucketStart: string;
  /** probes in the bucket (success + failure), exact */
  count: number;
  successes: number;
  outputTokensPerSecond: Percentiles;
  outputTokensPerSecondO200k: Percentiles;
  ttftMs: Percentiles;
  ttfatMs: Percentiles;
  e2eMs: Percentiles;
  errorKinds: Record<string, number>;
  /**
   * 'exact': percentile_cont over the bucket's raw values (one region); 'sketch': regions merged
   * through their sketches, each percentile within 1 % of exact.
   */
  percentileSource: 'exact' | 'sketch';
}

/** A detected level shift of the daily median output speed, e.g. label "+38% on 2025-06-02". */
export interface HistoryChangePoint {
  day: string;
  /** median of the daily medians before / after (tokens/s) */
  before: number;
  after: number;
  /** (after − before) / before */
  relativeChange: number;
  pValue: number;
  label: string;
}

function asPercentiles(v: Record<string, number> | null | undefined): Percentiles {
  if (!v) return null;
  return { p5: Number(v.p5), p25: Number(v.p25), p50: Number(v.p50), p75: Number(v.p75), p95: Number(v.p95) };
}

interface RollupPart {
  count: number;
  successes: number;
  stats: Stats;
  sketches: Sketches;
  errorKinds: Record<string, number>;
}

/** Merges one bucket's region rows: exact stats for a single row, sketch percentiles otherwise. */
function mergeParts(bucketStart: Date, parts: RollupPart[]): HistoryPoint {
  const errorKinds: Record<string, number> = {};
  let count = 0;
  let successes = 0;
  for (const p of parts) {
    count += p.count;
    successes += p.successes;
    for (const [k, v] of Object.entries(p.errorKinds ?? {})) errorKinds[k] = (errorKinds[k] ?? 0) + v;
  }
  const single = parts.length === 1;
  const metric = (m: Metric): Percentiles => {
    if (single) return asPercentiles(parts[0]!.stats[m]);
    const s = createSketch();
    for (const p of parts) mergeSketchJson(s, p.sketches?.[m] as SketchJson | undefined);
    return sketchSummary(s);
  };
  return {
    bucketStart: bucketStart.toISOString(),
    count,
    successes,
    outputTokensPerSecond: metric('outputTokensPerSecond'),
    outputTokensPerSecondO200k: metric('outputTokensPerSecondO200k'),
    ttftMs: metric('ttftMs'),
    ttfatMs: metric('ttfatMs'),
    e2eMs: metric('e2eMs'),
    errorKinds: Object.fromEntries(Object.entries(errorKinds).sort(([a], [b]) => (a < b ? -1 : 1))),
    percentileSource: single ? 'exact' : 'sketch',
  };
}

/** Columns of one rollup bucket that history merging reads (shared by both history queries). */
const rollupPartColumns = {
  bucketStart: measurementRollups.bucketStart,
  count: measurementRollups.count,
  successes: measurementRollups.successes,
  stats: measurementRollups.stats,
  sketches: measurementRollups.sketches,
  errorKinds: measurementRollups.errorKinds,
};

/**
 * An endpoint's rollup series (hourly or daily buckets) for one workload with bucket start in
 * [from, to], oldest first. Regions are merged through their sketches when `region` is null (see
 * HistoryPoint.percentileSource); a per-region request (or a single-region bucket) gives the
 * bucket's exact percentiles.
 */
export async function listEndpointHistory(
  db: Db,
  p: { endpointId: number; workloadSlug: string; granularity: 'hour' | 'day'; from: Date; to: Date; region: string | null },
): Promise<HistoryPoint[]> {
  const rows = await db
    .select(rollupPartColumns)
    .from(measurementRollups)
    .innerJoin(workloads, eq(workloads.id, measurementRollups.workloadId))
    .where(
      and(
        eq(measurementRollups.endpointId, p.endpointId),
        eq(workloads.slug, p.workloadSlug),
        eq(measurementRollups.granularity, p.granularity),
        gte(measurementRollups.bucketStart, p.from),
        lte(measurementRollups.bucketStart, p.to),
        ...(p.region ? [eq(measurementRollups.workerRegion, p.region)] : []),
      ),
    )
    .orderBy(asc(measurementRollups.bucketStart), asc(measurementRollups.workerRegion));
  const byBucket = new Map<number, { start: Date; parts: RollupPart[] }>();
  for (const r of rows) {
    const k = r.bucketStart.getTime();
    const b = byBucket.get(k) ?? { start: r.bucketStart, parts: [] };
    b.parts.push(r);
    byBucket.set(k, b);
  }
  return [...byBucket.values()].map((b) => mergeParts(b.start, b.parts));
}

/**
 * Change points of a daily series of median output speed (tokens/s), labelled like
 * "+38% on 2025-06-02" (defaults of lib/stats/change-points: ≥ 15 % effect, segments ≥ 3 days,
 * Mann–Whitney p < 0.05). Days without a median are skipped.
 */
export function findChangePoints(days: Array<{ day: string; median: number | null }>): HistoryChangePoint[] {
  const series = days.filter((d): d is { day: string; median: number } => d.median !== null && d.median > 0);
  return detectChangePoints(series).map((c) => ({ ...c, label: formatChange(c) }));
}

/** One endpoint's daily figures in a model history. */
export interface ModelHistorySeries {
  endpoint: { id: number; slug: string; provider: string; providerSlug: string };
  days: Array<{ day: string; count: number; successes: number; median: number | null; p25: number | null; p75: number | null; samples: number }>;
  changePoints: HistoryChangePoint[];
}

/**
 * Daily median output speed with P25–P75 of every listed endpoint of a model for one workload,
 * days with bucket start in [from, to], with change points per endpoint. Reads daily rollups only.
 * `basis` picks provider-reported or o200k token counts. Endpoints without data have empty days.
 */
export async function listModelHistory(
  db: Db,
  p: { modelSlug: string; workloadSlug: string; from: Date; to: Date; region: string | null; basis: 'reported' | 'o200k' },
): Promise<ModelHistorySeries[]> {
  const eps = await db
    .select({ id: endpoints.id, slug: endpoints.slug, provider: providers.name, providerSlug: providers.slug })
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(and(eq(models.slug, p.modelSlug), inArray(endpoints.status, ['active', 'inactive', 'paused'] as const)))
    .orderBy(asc(providers.name), asc(endpoints.slug));
  if (eps.length === 0) return [];
  const rows = await db
    .select({
      endpointId: measurementRollups.endpointId,
      ...rollupPartColumns,
    })
    .from(measurementRollups)
    .innerJoin(workloads, eq(workloads.id, measurementRollups.workloadId))
    .where(
      and(
        eq(measurementRollups.granularity, 'day'),
        eq(workloads.slug, p.workloadSlug),
        inArray(
          measurementRollups.endpointId,
          eps.map((e) => e.id),
        ),
        gte(measurementRollups.bucketStart, p.from),
        lte(measurementRollups.bucketStart, p.to),
        ...(p.region ? [eq(measurementRollups.workerRegion, p.region)] : []),
      ),
    )
    .orderBy(asc(measurementRollups.bucketStart), asc(measurementRollups.workerRegion));
  const metric: Metric = p.basis === 'o200k' ? 'outputTokensPerSecondO200k' : 'outputTokensPerSecond';
  const grouped = new Map<number, Map<number, { start: Date; parts: RollupPart[] }>>();
  for (const r of rows) {
    const byDay = grouped.get(r.endpointId) ?? new Map();
    const k = r.bucketStart.getTime();
    const b = byDay.get(k) ?? { start: r.bucketStart, parts: [] };
    b.parts.push(r);
    byDay.set(k, b);
    grouped.set(r.endpointId, byDay);
  }
  return eps.map((endpoint) => {
    const days = [...(grouped.get(endpoint.id)?.values() ?? [])].map((b) => {
      const point = mergeParts(b.start, b.parts);
      const s = createSketch();
      for (const part of b.parts) mergeSketchJson(s, part.sketches?.[metric] as SketchJson | undefined);
      const pct = point[metric];
      return { day: point.bucketStart.slice(0, 10), count: point.count, successes: point.successes, median: pct?.p50 ?? null, p25: pct?.p25 ?? null, p75: pct?.p75 ?? null, samples: s.total };
    });
    return { endpoint, days, changePoints: findChangePoints(days) };
  });
}
