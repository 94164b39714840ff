import { RETENTION_QUEUE, ROLLUP_QUEUE, scheduleProbesQueueName } from './queues';
import { PRECOMPUTE_ANSWERS_QUEUE } from './tasks/precompute-answers';
import { WRITE_DUMP_QUEUE } from './tasks/write-dump';

/**
 * Every recurring task, as data. pg-boss stores cron state in Postgres and one instance claims
 * each due occurrence, so several worker processes never double-fire a schedule.
 * `perRegion` schedules have a queue of their own per region (`queue(region)`), worked only by that
 * region's workers, so regions scale out and stop independently (docs/decisions/250).
 */
export interface ScheduledTask {
  queue: (region: string) => string;
  cron: (env: { probeCron: string }) => string;
  perRegion: boolean;
  description: string;
}

export const SCHEDULES: ScheduledTask[] = [
  {
    queue: scheduleProbesQueueName,
    cron: (env) => env.probeCron,
    perRegion: true,
    description: 'Fan out one keyed probe job per active endpoint × scheduled workload for this region and slot.',
  },
  {
    queue: () => ROLLUP_QUEUE,
    cron: () => '* * * * *',
    perRegion: false,
    description: 'Refresh hourly and daily rollups for buckets that received measurements since the last run.',
  },
  {
    queue: () => PRECOMPUTE_ANSWERS_QUEUE,
    cron: () => '* * * * *',
    perRegion: false,
    description: 'Compute the most-read leaderboard answers (listed model × scheduled workload × 24h/72h/7d × basis) as of the minute and store their bytes + ETag; also sent after every rollup run (a queued one collapses).',
  },
  {
    queue: () => RETENTION_QUEUE,
    cron: () => '17 3 * * *',
    perRegion: false,
    description: 'Delete raw measurements older than TOKENPACE_RAW_RETENTION_DAYS after re-rolling their days (does nothing when unset, the default).',
  },
  {
    queue: () => WRITE_DUMP_QUEUE,
    cron: () => '5 0 * * 1',
    perRegion: false,
    description: 'Write the public data dump of the last complete UTC week (gzip CSV of every measurement + manifest + SHA-256); also run once at worker start, idempotent per week.',
  },
];
