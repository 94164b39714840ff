/**
 * Task: dispatch-sweeps (every minute and once at start; jobs role). Sweep bookkeeping kept out of
 * the probe processes: re-sends a job for every sweep still queued (a web process's send may have
 * been lost) and fails running sweeps whose worker died (workers/tasks/run-sweep.ts dispatchSweeps).
 */
import { QUEUES } from '@/lib/queues';
import { defineHousekeepingTask } from '../task';
import { dispatchSweeps } from './run-sweep';

/** The descriptor (workers/task.ts): policy singleton (one dispatch at a time). */
export const dispatchSweepsTask = defineHousekeepingTask({
  task: 'dispatch-sweeps',
  description: 'Re-send jobs of queued sweeps and fail running sweeps whose worker died.',
  queue: { name: QUEUES.dispatchSweeps, policy: 'singleton' },
  schedule: { cron: '* * * * *', alsoAtStart: true },
  run: (deps) => dispatchSweeps(deps.db, deps.boss, deps.now()),
});
