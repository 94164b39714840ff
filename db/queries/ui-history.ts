/**
 * History questions asked by the pages (model history, endpoint outcome series, feed), answered
 * from measurement_rollups. Regions are merged per bucket: counts are summed, percentiles come from
 * the busiest region's bucket (as db/queries/history.ts does for one endpoint).
 */
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurementRollups, models, providers, workloads } from '../schema';

/** P5/P25/P50/P75/P95 in the metric's unit, or null without valid successes in the bucket. */
export type BucketPercentiles = { p5: number; p25: number; p50: number; p75: number; p95: number } | null;

/** One endpoint's bucket (hour or day) for one workload, regions merged. */
export interface EndpointBucket {
  endpointId: number;
  endpointSlug: string;
  provider: string;
  providerSlug: string;
  modelSlug: string;
  workloadSlug: string;
  /** bucket start, ISO 8601 UTC */
  bucketStart: string;
  /** probes in the bucket (success + failure) */
  count: number;
  successes: number;
  /** output speed, tokens/s */
  outputTokensPerSecond: BucketPercentiles;
  /** time to first token, ms */
  ttftMs: BucketPercentiles;
  errorKinds: Record<string, number>;
}

const bucketColumns = {
  endpointId: measurementRollups.endpointId,
  endpointSlug: endpoints.slug,
  provider: providers.name,
  providerSlug: providers.slug,
  modelSlug: models.slug,
  workloadSlug: workloads.slug,
  bucketStart: measurementRollups.bucketStart,
  region: measurementRollups.workerRegion,
  count: measurementRollups.count,
  successes: measurementRollups.successes,
  stats: measurementRollups.stats,
  errorKinds: measurementRollups.errorKinds,
};

type RawBucket = {
  endpointId: number;
  endpointSlug: string;
  provider: string;
  providerSlug: string;
  modelSlug: string;
  workloadSlug: string;
  bucketStart: Date;
  region: string;
  count: number;
  successes: number;
  stats: Record<string, Record<string, number> | null>;
  errorKinds: Record<string, number>;
};

function toPercentiles(v: Record<string, number> | null | undefined): BucketPercentiles {
  if (!v || typeof v.p50 !== 'number') return null;
  return { p5: v.p5!, p25: v.p25!, p50: v.p50, p75: v.p75!, p95: v.p95! };
}

/** Merges regions of the same endpoint × workload × bucket (sum counts, busiest region's percentiles). */
function mergeRegions(rows: RawBucket[]): EndpointBucket[] {
  const merged = new Map<string, { busiest: RawBucket; count: number; successes: number; kinds: Record<string, number> }>();
  for (const r of rows) {
    const key = `${r.endpointId}|${r.workloadSlug}|${r.bucketStart.toISOString()}`;
    const prev = merged.get(key);
    if (!prev) {
      merged.set(key, { busiest: r, count: r.count, successes: r.successes, kinds: { ...r.errorKinds } });
      continue;
    }
    prev.count += r.count;
    prev.successes += r.successes;
    for (const [k, n] of Object.entries(r.errorKinds)) prev.kinds[k] = (prev.kinds[k] ?? 0) + n;
    if (r.count > prev.busiest.count) prev.busiest = r;
  }
  return [...merged.values()].map(({ busiest: b, count, successes, kinds }) => ({
    endpointId: b.endpointId,
    endpointSlug: b.endpointSlug,
    provider: b.provider,
    providerSlug: b.providerSlug,
    modelSlug: b.modelSlug,
    workloadSlug: b.workloadSlug,
    bucketStart: b.bucketStart.toISOString(),
    count,
    successes,
    outputTokensPerSecond: toPercentiles(b.stats.outputTokensPerSecond),
    ttftMs: toPercentiles(b.stats.ttftMs),
    errorKinds: kinds,
  }));
}

/**
 * Every public endpoint of one model: its buckets for one workload in [from, to] (bucket starts),
 * ordered by endpoint then time. Used by the model history chart (daily) and compare page.
 */
export async function listModelHistory(
  db: Db,
  p: { modelSlug: string; workloadSlug: string; granularity: 'hour' | 'day'; from: Date; to: Date },
): Promise<EndpointBucket[]> {
  const rows = await db
    .select(bucketColumns)
    .from(measurementRollups)
    .innerJoin(endpoints, eq(endpoints.id, measurementRollups.endpointId))
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .innerJoin(workloads, eq(workloads.id, measurementRollups.workloadId))
    .where(
      and(
        eq(models.slug, p.modelSlug),
        eq(workloads.slug, p.workloadSlug),
        eq(measurementRollups.granularity, p.granularity),
        gte(measurementRollups.bucketStart, p.from),
        lte(measurementRollups.bucketStart, p.to),
        inArray(endpoints.status, ['active', 'inactive', 'paused']),
      ),
    )
    .orderBy(asc(endpoints.id), asc(measurementRollups.bucketStart));
  return mergeRegions(rows);
}

/**
 * Buckets of the given endpoints for one workload in [from, to] (any model), ordered by endpoint
 * then time. Used by the compare page and the embeds.
 */
export async function listEndpointsHistory(
  db: Db,
  p: { endpointIds: number[]; workloadSlug: string; granularity: 'hour' | 'day'; from: Date; to: Date },
): Promise<EndpointBucket[]> {
  if (p.endpointIds.length === 0) return [];
  const rows = await db
    .select(bucketColumns)
    .from(measurementRollups)
    .innerJoin(endpoints, eq(endpoints.id, measurementRollups.endpointId))
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .innerJoin(workloads, eq(workloads.id, measurementRollups.workloadId))
    .where(
      and(
        inArray(measurementRollups.endpointId, p.endpointIds),
        eq(workloads.slug, p.workloadSlug),
        eq(measurementRollups.granularity, p.granularity),
        gte(measurementRollups.bucketStart, p.from),
        lte(measurementRollups.bucketStart, p.to),
      ),
    )
    .orderBy(asc(endpoints.id), asc(measurementRollups.bucketStart));
  return mergeRegions(rows);
}

/** One bucket of an endpoint's outcomes over all workloads and regions. */
export interface OutcomeBucket {
  bucketStart: string;
  count: number;
  successes: number;
  /** failures by error kind (timeout, rate_limited, …) */
  errorKinds: Record<string, number>;
}

/**
 * An endpoint's probe outcomes per bucket in [from, to], summed over workloads and regions:
 * count, successes and failures by kind. Ordered by time.
 */
export async function listEndpointOutcomes(
  db: Db,
  p: { endpointId: number; granularity: 'hour' | 'day'; from: Date; to: Date },
): Promise<OutcomeBucket[]> {
  const rows = await db
    .select({
      bucketStart: measurementRollups.bucketStart,
      count: measurementRollups.count,
      successes: measurementRollups.successes,
      errorKinds: measurementRollups.errorKinds,
    })
    .from(measurementRollups)
    .where(
      and(
        eq(measurementRollups.endpointId, p.endpointId),
        eq(measurementRollups.granularity, p.granularity),
        gte(measurementRollups.bucketStart, p.from),
        lte(measurementRollups.bucketStart, p.to),
      ),
    )
    .orderBy(asc(measurementRollups.bucketStart));
  const byBucket = new Map<string, OutcomeBucket>();
  for (const r of rows) {
    const key = r.bucketStart.toISOString();
    const b = byBucket.get(key) ?? { bucketStart: key, count: 0, successes: 0, errorKinds: {} };
    b.count += r.count;
    b.successes += r.successes;
    for (const [k, n] of Object.entries(r.errorKinds)) b.errorKinds[k] = (b.errorKinds[k] ?? 0) + n;
    byBucket.set(key, b);
  }
  return [...byBucket.values()];
}

/**
 * Daily buckets of every public endpoint for every workload in [from, to]: the raw material of the
 * feed of notable changes (new #1, change points). Ordered by endpoint, workload, time.
 */
export async function listAllDailyBuckets(db: Db, p: { from: Date; to: Date }): Promise<EndpointBucket[]> {
  const rows = await db
    .select(bucketColumns)
    .from(measurementRollups)
    .innerJoin(endpoints, eq(endpoints.id, measurementRollups.endpointId))
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .innerJoin(workloads, eq(workloads.id, measurementRollups.workloadId))
    .where(
      and(
        eq(measurementRollups.granularity, 'day'),
        gte(measurementRollups.bucketStart, p.from),
        lte(measurementRollups.bucketStart, p.to),
        inArray(endpoints.status, ['active', 'inactive', 'paused']),
      ),
    )
    .orderBy(asc(endpoints.id), asc(workloads.slug), asc(measurementRollups.bucketStart));
  return mergeRegions(rows);
}
