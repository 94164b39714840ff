/**
 * History series read from rollups (never from raw measurements, so the cost grows with the range
 * asked for, not with the data kept): an endpoint's hourly or daily buckets, and a model's daily
 * medians per endpoint, each with change points (lib/stats/change-points) on the daily medians.
 */
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurementRollups, models, providers, workloads } from '../schema';
import { detectChangePoints, formatChange } from '@/lib/stats/change-points';
import {
  partsPercentiles,
  summarizeWindow,
  SPEED_METRIC_OF_BASIS,
  type NotRankableCounts,
  type Percentiles,
  type SpeedBasis,
  type WindowPart,
} from '@/lib/stats/window-stats';
import { toWindowPart } from './rollup-parts';
import { rollupWindow } from './window-filters';

/** One history bucket (all regions merged unless a region was asked for). */
export interface HistoryPoint {
  /** bucket start, ISO UTC */
  bucketStart: string;
  /** probes in the bucket (success + failure), exact: a leaderboard entry's n, per bucket */
  n: number;
  count?: number; // alias (decision 280)
  successes: number;
  outputTokensPerSecond: Percentiles;
  outputTokensPerSecondO200k: Percentiles;
  ttftMs: Percentiles;
  ttfatMs: Percentiles;
  e2eMs: Percentiles;
  errorKinds: Record<string, number>;
  /** measurements of the bucket left out of every figure, by not-rankable reason */
  notRankable: NotRankableCounts;
  excluded?: NotRankableCounts; // alias (decision 280)
  /**
   * Always 'sketch': the figures come from the window engine (lib/stats/window-stats), the same
   * computation as the leaderboard, each percentile within 0.05 % of the exact type-7 value.
   */
  percentileSource: 'sketch';
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

/** One bucket's region rows merged by the window engine (the leaderboard's computation). */
function toHistoryPoint(bucketStart: Date, parts: WindowPart[]): HistoryPoint {
  const w = summarizeWindow(parts, 'reported');
  return {
    bucketStart: bucketStart.toISOString(),
    n: w.n,
    count: w.n, // alias (decision 280)
    successes: w.successes,
    outputTokensPerSecond: w.outputTokensPerSecond,
    outputTokensPerSecondO200k: partsPercentiles(parts, 'outputTokensPerSecondO200k').percentiles,
    ttftMs: w.ttftMs,
    ttfatMs: w.ttfatMs,
    e2eMs: w.e2eMs,
    errorKinds: w.errorKinds,
    notRankable: w.notRankable,
    excluded: w.notRankable, // alias (decision 280)
    percentileSource: 'sketch',
  };
}

/** Columns of one rollup bucket that history merging reads (shared by both history queries). */
const rollupPartColumns = {
  bucketStart: measurementRollups.bucketStart,
  count: measurementRollups.count,
  successes: measurementRollups.successes,
  sketches: measurementRollups.sketches,
  errorKinds: measurementRollups.errorKinds,
  notRankable: measurementRollups.notRankable,
};

/** Groups rollup rows by bucket start (oldest first as queried) into window parts. */
function groupByBucket(rows: Array<Parameters<typeof toWindowPart>[0] & { bucketStart: Date }>): Array<{ start: Date; parts: WindowPart[] }> {
  const byBucket = new Map<number, { start: Date; parts: WindowPart[] }>();
  for (const r of rows) {
    const k = r.bucketStart.getTime();
    const b = byBucket.get(k) ?? { start: r.bucketStart, parts: [] };
    b.parts.push(toWindowPart(r));
    byBucket.set(k, b);
  }
  return [...byBucket.values()];
}

/**
 * An endpoint's rollup series (hourly or daily buckets) for one workload with bucket start in
 * [from, to], oldest first, figures from the window engine (regions merged unless one is asked
 * for): a day bucket shows the same figures as a 24 h leaderboard window ending at the next UTC
 * midnight.
 */
export async function listEndpointHistory(
  db: Db,
  p: { endpointId: number; workloadSlug: string; granularity: 'hour' | 'day'; from: Date; to: Date; region: string | null },
): Promise<HistoryPoint[]> {
  const rows = await db
    .select(rollupPartColumns)
    .from(measurementRollups)
    .innerJoin(workloads, eq(workloads.id, measurementRollups.workloadId))
    .where(and(...rollupWindow(p), ...(p.region ? [eq(measurementRollups.workerRegion, p.region)] : [])))
    .orderBy(asc(measurementRollups.bucketStart), asc(measurementRollups.workerRegion));
  return groupByBucket(rows).map((b) => toHistoryPoint(b.start, b.parts));
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
  days: Array<{
    day: string;
    /** probes that day (success + failure) */
    n: number;
    count?: number; // alias (decision 280)
    successes: number;
    median: number | null;
    p25: number | null;
    p75: number | null;
    samples: number;
  }>;
  changePoints: HistoryChangePoint[];
}

/**
 * Daily median output speed with P25–P75 of every listed endpoint of a model for one workload,
 * days with bucket start in [from, to], with change points per endpoint. Reads daily rollups only.
 * `basis` picks provider-reported or o200k token counts. Endpoints without data have empty days.
 */
export async function listModelHistory(
  db: Db,
  p: { modelSlug: string; workloadSlug: string; from: Date; to: Date; region: string | null; basis: SpeedBasis },
): Promise<ModelHistorySeries[]> {
  const eps = await db
    .select({ id: endpoints.id, slug: endpoints.slug, provider: providers.name, providerSlug: providers.slug })
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(and(eq(models.slug, p.modelSlug), inArray(endpoints.status, ['active', 'inactive', 'paused', 'retired'] as const)))
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
  const metric = SPEED_METRIC_OF_BASIS[p.basis];
  const grouped = new Map<number, typeof rows>();
  for (const r of rows) grouped.set(r.endpointId, [...(grouped.get(r.endpointId) ?? []), r]);
  return eps.map((endpoint) => {
    const days = groupByBucket(grouped.get(endpoint.id) ?? []).map((b) => {
      const w = summarizeWindow(b.parts, 'reported');
      const speed = partsPercentiles(b.parts, metric);
      return {
        day: b.start.toISOString().slice(0, 10),
        n: w.n,
        count: w.n, // alias (decision 280)
        successes: w.successes,
        median: speed.percentiles?.p50 ?? null,
        p25: speed.percentiles?.p25 ?? null,
        p75: speed.percentiles?.p75 ?? null,
        samples: speed.samples,
      };
    });
    return { endpoint, days, changePoints: findChangePoints(days) };
  });
}
