/**
 * History questions the pages ask that the API's history queries (db/queries/history.ts) do not:
 * an endpoint's probe outcomes per bucket over all workloads and regions.
 */
import { and, asc } from 'drizzle-orm';
import type { Db } from '../client';
import { measurementRollups } from '../schema';
import { rollupWindow } from './window-filters';

/** One bucket of an endpoint's outcomes over all workloads and regions. */
export interface OutcomeBucket {
  /** bucket start, ISO UTC */
  bucketStart: string;
  /** probes (success + failure) */
  count: number;
  successes: number;
  /** failures by error kind (timeout, rate_limited, …) */
  errorKinds: Record<string, number>;
}

/**
 * An endpoint's probe outcomes per bucket with start in [from, to], summed over workloads and
 * regions: count, successes and failures by kind. Oldest first.
 */
export async function listEndpointOutcomes(db: Db, p: { endpointId: number; granularity: 'hour' | 'day'; from: Date; to: Date }): Promise<OutcomeBucket[]> {
  const rows = await db
    .select({
      bucketStart: measurementRollups.bucketStart,
      count: measurementRollups.count,
      successes: measurementRollups.successes,
      errorKinds: measurementRollups.errorKinds,
    })
    .from(measurementRollups)
    .where(and(...rollupWindow(p)))
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
