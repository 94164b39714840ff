/**
 * Every pg-boss queue name, in one place (issue 28 item 3). Workers create, schedule and work them
 * (workers/tasks/*: one descriptor per task); the web sends sweep jobs and /api/health reads the
 * per-region schedule and probe queues. Names are part of the database's state (pg-boss tables,
 * schedules), so renaming one needs a migration note (docs/decisions/250).
 */
export const QUEUES = {
  rollupMeasurements: 'rollup-measurements',
  precomputeAnswers: 'precompute-answers',
  applyRetention: 'apply-retention',
  ensurePartitions: 'ensure-partitions',
  writeDump: 'write-dump',
  runSweep: 'run-sweep',
  dispatchSweeps: 'dispatch-sweeps',
} as const;

/** Prefix of the per-region probe queues: `probe-<region>`. */
export const PROBE_QUEUE_PREFIX = 'probe-';
/** Prefix of the per-region schedule queues: `schedule-probes-<region>`. */
export const SCHEDULE_PROBES_QUEUE_PREFIX = 'schedule-probes-';
/**
 * Before regions had their own schedule queue every region's firing went to this one queue, where a
 * worker of another region could take and drop it (issue 23 item 2). Kept only so a worker removes
 * those legacy schedules on start (docs/decisions/250).
 */
export const LEGACY_SCHEDULE_PROBES_QUEUE = 'schedule-probes';

/** Probe jobs are per region: only workers of that region take them. */
export function probeQueueName(region: string): string {
  return `${PROBE_QUEUE_PREFIX}${region}`;
}

/**
 * The schedule queue of one region: its cron fires here and only that region's workers work it, so
 * a region never takes (or drops) another region's firing, and a region without a live worker
 * leaves its firing waiting where /api/health sees it (docs/decisions/250).
 */
export function scheduleProbesQueueName(region: string): string {
  return `${SCHEDULE_PROBES_QUEUE_PREFIX}${region}`;
}
