import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../client';
import { measurementRollups, workloads } from '../schema';

/**
 * An endpoint's rollup series (hourly or daily buckets) for one workload between `from` and `to`,
 * summed over regions when `region` is null (percentiles then come from the busiest region's
 * bucket; a per-region request gives exact bucket percentiles).
 */
export async function listEndpointHistory(
  db: Db,
  p: { endpointId: number; workloadSlug: string; granularity: 'hour' | 'day'; from: Date; to: Date; region: string | null },
) {
  const rows = await db
    .select({
      bucketStart: measurementRollups.bucketStart,
      region: measurementRollups.workerRegion,
      count: measurementRollups.count,
      successes: measurementRollups.successes,
      stats: measurementRollups.stats,
      errorKinds: measurementRollups.errorKinds,
    })
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
    .orderBy(asc(measurementRollups.bucketStart));
  const byBucket = new Map<string, (typeof rows)[number] & { totalCount: number; totalSuccesses: number }>();
  for (const r of rows) {
    const key = r.bucketStart.toISOString();
    const prev = byBucket.get(key);
    if (!prev) byBucket.set(key, { ...r, totalCount: r.count, totalSuccesses: r.successes });
    else {
      const busiest = r.count > prev.count ? r : prev;
      byBucket.set(key, { ...busiest, totalCount: prev.totalCount + r.count, totalSuccesses: prev.totalSuccesses + r.successes });
    }
  }
  return [...byBucket.values()].map((b) => ({
    bucketStart: b.bucketStart.toISOString(),
    count: b.totalCount,
    successes: b.totalSuccesses,
    outputTokensPerSecond: b.stats.outputTokensPerSecond ?? null,
    outputTokensPerSecondO200k: b.stats.outputTokensPerSecondO200k ?? null,
    ttftMs: b.stats.ttftMs ?? null,
    ttfatMs: b.stats.ttfatMs ?? null,
    e2eMs: b.stats.e2eMs ?? null,
    errorKinds: b.errorKinds,
  }));
}
