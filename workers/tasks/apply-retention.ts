/**
 * Task: apply-retention (daily at 03:17 UTC, workers/schedule.ts). Off unless the operator sets
 * TOKENPACE_RAW_RETENTION_DAYS: raw measurements are evidence and are kept forever by default.
 * When set to N (≥ 7), measurements of UTC days that ended more than N days ago are deleted one
 * day at a time, each day's hourly and daily rollups being rebuilt from raw right before its rows
 * go, so charts and leaderboards keep their figures (rollups are never deleted). At most
 * `maxDaysPerRun` days per run keep a first run on a long history short; later runs continue.
 * What is lost: the per-probe evidence (timelines) and the ability to rebuild those rollups.
 */
import type { Db } from '@/db/client';
import { deleteMeasurementsInRange, floorBucket, getOldestMeasurementTime, rebuildRollups } from '@/db/queries/rollups';

const DAY = 86400_000;

/**
 * One run. `retentionDays` null or undefined → does nothing (the default).
 * @returns days processed and raw rows deleted
 */
export async function runRetentionJob(db: Db, now: Date, retentionDays: number | null | undefined, options: { maxDaysPerRun?: number } = {}): Promise<{ days: string[]; deleted: number }> {
  if (!retentionDays) return { days: [], deleted: 0 };
  if (!Number.isInteger(retentionDays) || retentionDays < 7) throw new RangeError(`retentionDays must be an integer ≥ 7, got ${retentionDays}`);
  const cutoff = new Date(floorBucket(now, 'day').getTime() - retentionDays * DAY);
  const oldest = await getOldestMeasurementTime(db);
  const days: string[] = [];
  let deleted = 0;
  if (!oldest) return { days, deleted };
  const maxDays = options.maxDaysPerRun ?? 7;
  for (let d = floorBucket(oldest, 'day'); d < cutoff && days.length < maxDays; d = new Date(d.getTime() + DAY)) {
    const next = new Date(d.getTime() + DAY);
    await rebuildRollups(db, { granularity: 'hour', from: d, to: next });
    await rebuildRollups(db, { granularity: 'day', from: d, to: next });
    deleted += await deleteMeasurementsInRange(db, { from: d, to: next });
    days.push(d.toISOString().slice(0, 10));
  }
  return { days, deleted };
}
