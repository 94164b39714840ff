/**
 * Task: rollup-measurements (every minute).
 * Recomputes the hourly buckets of the last two hours and the daily buckets of the last two days
 * from raw measurements. Recomputing whole recent buckets (instead of adding deltas) keeps the job
 * idempotent: a late or duplicated run gives the same rows as a full rebuild.
 */
import type { Db } from '@/db/client';
import { rebuildRollups } from '@/db/queries/rollups';

export async function runRollupJob(db: Db, now: Date): Promise<{ hourBuckets: number; dayBuckets: number }> {
  const to = new Date(now.getTime() + 60_000);
  const hourBuckets = await rebuildRollups(db, { granularity: 'hour', from: new Date(now.getTime() - 2 * 3600_000), to });
  const dayBuckets = await rebuildRollups(db, { granularity: 'day', from: new Date(now.getTime() - 2 * 86400_000), to });
  return { hourBuckets, dayBuckets };
}
