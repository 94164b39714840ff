/**
 * The WHERE conditions of "one endpoint over a time window" questions, written once: on raw
 * measurements (`measuredAt` in [from, to], both ends inclusive) and on rollup buckets
 * (`bucketStart` in [from, to]). A `workloadSlug` filter needs `workloads` joined.
 */
import { eq, gte, lte, type SQL } from 'drizzle-orm';
import { measurementRollups, measurements, workloads } from '../schema';

/** Raw measurements of one endpoint (and workload, when given) measured in [from, to]. */
export function measurementWindow(p: { endpointId: number; workloadSlug?: string; from: Date; to: Date }): SQL[] {
  return [
    eq(measurements.endpointId, p.endpointId),
    ...(p.workloadSlug !== undefined ? [eq(workloads.slug, p.workloadSlug)] : []),
    gte(measurements.measuredAt, p.from),
    lte(measurements.measuredAt, p.to),
  ];
}

/** Rollup buckets of one endpoint (and workload, when given) at one granularity starting in [from, to]. */
export function rollupWindow(p: { endpointId: number; workloadSlug?: string; granularity: 'hour' | 'day'; from: Date; to: Date }): SQL[] {
  return [
    eq(measurementRollups.endpointId, p.endpointId),
    ...(p.workloadSlug !== undefined ? [eq(workloads.slug, p.workloadSlug)] : []),
    eq(measurementRollups.granularity, p.granularity),
    gte(measurementRollups.bucketStart, p.from),
    lte(measurementRollups.bucketStart, p.to),
  ];
}
