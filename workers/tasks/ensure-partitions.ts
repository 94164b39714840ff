/**
 * Task: ensure-partitions (daily at 00:11 UTC and once when a jobs worker starts; its descriptor
 * below). Creates the monthly partitions of `measurements` for the current UTC month and the
 * MEASUREMENT_PARTITION_MONTHS_AHEAD months after it where missing (decision 217), so new rows land
 * in their month's partition and a time-bounded query reads only its months. Should it not run,
 * nothing fails: rows of a month without a partition go to the default partition, and the month's
 * creation later moves them into it.
 */
import type { Db } from '@/db/client';
import { ensureMeasurementPartitions, MEASUREMENT_PARTITION_MONTHS_AHEAD } from '@/db/queries/measurement-partitions';
import { QUEUES } from '@/lib/queues';
import { defineHousekeepingTask } from '../task';

/** One run at `now`: the partitions created (table names; empty when all existed). */
export async function runEnsurePartitionsJob(db: Db, now: Date): Promise<{ created: string[] }> {
  return { created: await ensureMeasurementPartitions(db, now, MEASUREMENT_PARTITION_MONTHS_AHEAD) };
}

/** The descriptor (workers/task.ts): jobs role, daily at 00:11 UTC and at start, policy singleton. */
export const ensurePartitionsTask = defineHousekeepingTask({
  task: 'ensure-partitions',
  description: `Create the monthly partitions of measurements for this UTC month and the next ${MEASUREMENT_PARTITION_MONTHS_AHEAD} where missing.`,
  queue: { name: QUEUES.ensurePartitions, policy: 'singleton' },
  schedule: { cron: '11 0 * * *', alsoAtStart: true },
  run: async (deps) => {
    const r = await runEnsurePartitionsJob(deps.db, deps.now());
    if (r.created.length > 0) deps.log.info({ created: r.created }, 'measurement partitions created');
    return r;
  },
});
