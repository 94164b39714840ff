/**
 * Task: apply-retention (daily at 03:17 UTC, its descriptor, workers/tasks/index.ts). Off unless the operator sets
 * TOKENPACE_RAW_RETENTION_DAYS: raw measurements are evidence and are kept forever by default.
 * When set to N (≥ 7), measurements of UTC days that ended more than N days ago are deleted one
 * day at a time, each day's hourly and daily rollups being rebuilt from raw right before its rows
 * go, so charts and leaderboards keep their figures (rollups are never deleted). At most
 * `maxDaysPerRun` days per run keep a first run on a long history short; later runs continue.
 * What is lost: the per-probe evidence (timelines) and the ability to rebuild those rollups.
 */
import type { Db } from '@/db/client';
import { deleteMeasurementsInRange, floorBucket, getOldestMeasurementTime, rebuildRollups } from '@/db/queries/rollups';
import { QUEUES } from '@/lib/queues';
import type { JobsRoleTask } from '../task';

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

/** The descriptor (workers/task.ts): jobs role, daily at 03:17 UTC, policy singleton. */
export const applyRetentionTask: JobsRoleTask = {
  task: 'retention',
  role: 'jobs',
  description: 'Delete raw measurements older than TOKENPACE_RAW_RETENTION_DAYS after re-rolling their days (does nothing when unset, the default).',
  queue: () => QUEUES.applyRetention,
  queueOptions: { policy: 'singleton' },
  schedule: { cron: () => '17 3 * * *', data: () => ({}) },
  timed: true,
  run: async (deps) => {
    const r = await runRetentionJob(deps.db, deps.now(), deps.env.TOKENPACE_RAW_RETENTION_DAYS ?? null);
    if (r.days.length > 0) deps.log.info({ deleted: r.deleted, days: r.days }, 'retention applied');
    return r;
  },
};
