/**
 * Every worker task, as data (workers/task.ts). workers/main.ts creates, schedules and works each
 * task of its role from this list, and nothing else: no queue is created and no cron scheduled
 * anywhere else (workers/tasks/tasks.test.ts checks it).
 */
import { probeTask } from '../scheduled-probe';
import type { JobsRoleTask, ProbeRoleTask, TaskDescriptor, WorkerRole } from '../task';
import { applyRetentionTask } from './apply-retention';
import { dispatchSweepsTask } from './dispatch-sweeps';
import { ensurePartitionsTask } from './ensure-partitions';
import { precomputeAnswersTask } from './precompute-answers';
import { rollupMeasurementsTask } from './rollup-measurements';
import { runSweepTask } from './run-sweep';
import { scheduleProbesTask } from './schedule-probes';
import { writeDumpTask } from './write-dump';

export const TASKS: readonly TaskDescriptor[] = [
  scheduleProbesTask,
  probeTask,
  runSweepTask,
  rollupMeasurementsTask,
  precomputeAnswersTask,
  applyRetentionTask,
  ensurePartitionsTask,
  writeDumpTask,
  dispatchSweepsTask,
];

/** The probe role's tasks. */
export const PROBE_TASKS: readonly ProbeRoleTask[] = TASKS.filter((t): t is ProbeRoleTask => t.role === 'probe');
/** The jobs role's tasks. */
export const JOBS_TASKS: readonly JobsRoleTask[] = TASKS.filter((t): t is JobsRoleTask => t.role === 'jobs');

/** The tasks of `role`. */
export function tasksOfRole(role: WorkerRole): readonly TaskDescriptor[] {
  return role === 'probe' ? PROBE_TASKS : JOBS_TASKS;
}
