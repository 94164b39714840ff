/**
 * Task: apply-retention (daily at 03:17 UTC, its descriptor, workers/tasks/index.ts). Off unless the operator sets
 * TOKENPACE_RAW_RETENTION_DAYS: raw measurements are evidence and are kept forever by default.
 * When set to N (≥ 7), measurements of UTC days that ended more than N days ago go, each day's
 * hourly and daily rollups being rebuilt from raw right before its rows go, so charts and
 * leaderboards keep their figures (rollups are never deleted):
 * - a whole monthly partition (decision 217) that ended before the cutoff is dropped after its days
 *   that still hold rows are rebuilt (at most `maxPartitionsPerRun` months a run, default 1);
 * - what remains before the cutoff (the older part of the month the cutoff falls in, rows of the
 *   default partition) is deleted one day at a time, at most `maxDaysPerRun` days a run (default 7).
 * A first run on a long history is short; later runs continue. What is lost: the per-probe
 * evidence (timelines) and the ability to rebuild those rollups.
 */
import type { Db } from '@/db/client';
import { dropMeasurementPartition, getOldestMeasurementTimeIn, listMeasurementPartitions } from '@/db/queries/measurement-partitions';
import { deleteMeasurementsInRange, floorBucket, getOldestMeasurementTime, rebuildRollups } from '@/db/queries/rollups';
import { QUEUES } from '@/lib/queues';
import { defineHousekeepingTask } from '../task';

const DAY = 86400_000;

/** What one run did: the UTC days rebuilt before their rows went, raw rows removed, partitions dropped. */
export interface RetentionRun {
  days: string[];
  deleted: number;
  partitions: string[];
}

async function rerollDay(db: Db, d: Date): Promise<void> {
  const next = new Date(d.getTime() + DAY);
  await rebuildRollups(db, { granularity: 'hour', from: d, to: next });
  await rebuildRollups(db, { granularity: 'day', from: d, to: next });
}

/**
 * One run. `retentionDays` null or undefined → does nothing (the default).
 * @returns days rebuilt, raw rows removed (dropped with a partition or deleted), partitions dropped
 */
export async function runRetentionJob(
  db: Db,
  now: Date,
  retentionDays: number | null | undefined,
  options: { maxDaysPerRun?: number; maxPartitionsPerRun?: number } = {},
): Promise<RetentionRun> {
  const run: RetentionRun = { days: [], deleted: 0, partitions: [] };
  if (!retentionDays) return run;
  if (!Number.isInteger(retentionDays) || retentionDays < 7) throw new RangeError(`retentionDays must be an integer ≥ 7, got ${retentionDays}`);
  const cutoff = new Date(floorBucket(now, 'day').getTime() - retentionDays * DAY);
  // Whole months before the cutoff: re-roll the days still holding rows, then drop the month.
  const maxPartitions = options.maxPartitionsPerRun ?? 1;
  for (const p of await listMeasurementPartitions(db)) {
    if (p.to.getTime() > cutoff.getTime() || run.partitions.length >= maxPartitions) break;
    const oldest = await getOldestMeasurementTimeIn(db, p.name);
    if (oldest) {
      for (let d = floorBucket(oldest, 'day'); d < p.to; d = new Date(d.getTime() + DAY)) {
        await rerollDay(db, d);
        run.days.push(d.toISOString().slice(0, 10));
      }
    }
    run.deleted += await dropMeasurementPartition(db, p);
    run.partitions.push(p.name);
  }
  // The rest before the cutoff, a day at a time.
  const oldest = await getOldestMeasurementTime(db);
  if (!oldest) return run;
  const maxDays = options.maxDaysPerRun ?? 7;
  let deletedDays = 0;
  for (let d = floorBucket(oldest, 'day'); d < cutoff && deletedDays < maxDays; d = new Date(d.getTime() + DAY)) {
    await rerollDay(db, d);
    run.deleted += await deleteMeasurementsInRange(db, { from: d, to: new Date(d.getTime() + DAY) });
    run.days.push(d.toISOString().slice(0, 10));
    deletedDays++;
  }
  return run;
}

/** The descriptor (workers/task.ts): jobs role, daily at 03:17 UTC, policy singleton. */
export const applyRetentionTask = defineHousekeepingTask({
  task: 'retention',
  description:
    'Drop monthly partitions and delete raw measurements older than TOKENPACE_RAW_RETENTION_DAYS after re-rolling their days (does nothing when unset, the default).',
  queue: { name: QUEUES.applyRetention, policy: 'singleton' },
  schedule: { cron: '17 3 * * *' },
  run: async (deps) => {
    const r = await runRetentionJob(deps.db, deps.now(), deps.env.TOKENPACE_RAW_RETENTION_DAYS ?? null);
    if (r.days.length > 0 || r.partitions.length > 0) deps.log.info({ deleted: r.deleted, days: r.days, partitions: r.partitions }, 'retention applied');
    return r;
  },
});
