/**
 * Task: rollup-measurements (every minute, workers/schedule.ts).
 * Recomputes from raw measurements the hourly buckets from the newest existing hourly rollup (or
 * the oldest measurement, on a fresh database) up to now, but never fewer than the last two hours,
 * and the daily buckets of the days those hours touch. Recomputing whole buckets (instead of adding
 * deltas) keeps the job idempotent: a late or duplicated run gives the same rows as a full rebuild
 * (`rebuildRollups` over any range). Starting from the newest rollup catches up after the worker
 * was down; a backlog is processed at most `maxHoursPerRun` hours per run, oldest first, so one run
 * stays short and the next continues where it stopped.
 */
import type { Db } from '@/db/client';
import { floorBucket, getLatestRollupHour, getOldestMeasurementTime, rebuildRollups } from '@/db/queries/rollups';

const HOUR = 3600_000;

/**
 * One run. `now` is an argument so bucket maths is testable.
 * @returns the hour range processed and the number of hourly and daily buckets written
 */
export async function runRollupJob(db: Db, now: Date, options: { maxHoursPerRun?: number } = {}): Promise<{ from: Date; to: Date; hourBuckets: number; dayBuckets: number }> {
  const maxHours = options.maxHoursPerRun ?? 48;
  const recent = floorBucket(new Date(now.getTime() - 2 * HOUR), 'hour');
  const latest = (await getLatestRollupHour(db)) ?? (await getOldestMeasurementTime(db));
  const from = latest && latest < recent ? floorBucket(latest, 'hour') : recent;
  const end = new Date(now.getTime() + 60_000);
  const to = end.getTime() - from.getTime() > maxHours * HOUR ? new Date(from.getTime() + maxHours * HOUR) : end;
  const hourBuckets = await rebuildRollups(db, { granularity: 'hour', from, to });
  const dayBuckets = await rebuildRollups(db, { granularity: 'day', from, to });
  return { from, to, hourBuckets, dayBuckets };
}
