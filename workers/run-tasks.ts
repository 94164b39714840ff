/**
 * Runs task descriptors (workers/task.ts) on pg-boss: `startTasks` creates each task's queue once,
 * schedules its cron, works it and sends its at-start job (workers/main.ts); `drainOnce` runs what
 * is queued now through the same handlers and returns when nothing is left (graphile-worker's
 * `runOnce`), so a test fires a schedule (a job in its queue) and drains instead of waiting for a
 * cron minute (docs/decisions/252).
 */
import type { PgBoss } from 'pg-boss';
import type { ProbeRoleDeps, TaskDeps, TaskDescriptor, TaskJob } from './task';

type DepsFor<T extends TaskDescriptor> = T extends { role: 'probe' } ? ProbeRoleDeps : TaskDeps;

/** Runs one job through its task, timed in tokenpace_task_duration_seconds when the task says so. */
async function runJob<T extends TaskDescriptor>(task: T, deps: DepsFor<T>, job: TaskJob): Promise<unknown> {
  const end = task.timed ? deps.metrics.taskDuration.startTimer({ task: task.task }) : null;
  try {
    const out = await (task.run as (d: DepsFor<T>, j: TaskJob) => Promise<unknown>)(deps, job);
    end?.({ outcome: 'ok' });
    return out;
  } catch (err) {
    end?.({ outcome: 'error' });
    throw err;
  }
}

/**
 * Creates every task's queue (and applies its heartbeat to a queue made before heartbeats
 * existed), schedules the recurring ones, registers the work handlers and sends the at-start jobs.
 * `work: false` (for `--once`) only creates the queues and sends the at-start jobs: no cron, no
 * handler. Returns the queue names in task order. Throws when two tasks name the same queue: a
 * queue is created once.
 */
export async function startTasks<T extends TaskDescriptor>(
  boss: PgBoss,
  tasks: readonly T[],
  deps: DepsFor<T>,
  opts: { work?: boolean } = {},
): Promise<string[]> {
  const work = opts.work ?? true;
  const names = tasks.map((t) => t.queue(deps.region));
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`queue "${dup}" is named by two tasks`);
  for (const [i, t] of tasks.entries()) {
    const name = names[i]!;
    await boss.createQueue(name, t.queueOptions);
    if (t.queueOptions.heartbeatSeconds) await boss.updateQueue(name, { heartbeatSeconds: t.queueOptions.heartbeatSeconds });
    if (t.schedule && work) await boss.schedule(name, t.schedule.cron(deps.env), t.schedule.data(deps.region));
  }
  for (const [i, t] of work ? tasks.entries() : []) {
    const handler = async (jobs: TaskJob[]) => {
      let last: unknown;
      for (const job of jobs) last = await runJob(t, deps, job);
      return last;
    };
    if (t.workOptions) await boss.work(names[i]!, t.workOptions, handler);
    else await boss.work(names[i]!, handler);
  }
  for (const [i, t] of tasks.entries()) if (t.atStart) await boss.send(names[i]!, t.atStart(deps.region));
  return names;
}

/** What one drain ran: jobs completed and failed per queue. */
export type DrainReport = Record<string, { completed: number; failed: number }>;

/**
 * Runs every job that is queued and due in the tasks' queues now, one at a time, through the
 * tasks' handlers, including jobs those handlers enqueue (a schedule's probes, the rollup's
 * precompute), until a whole pass over the queues finds nothing. The queues must exist (created by
 * a worker or `startTasks`). A failing handler fails its job (pg-boss retries it per the queue's
 * policy; a retry that is due again is run in the same drain, bounded by `maxJobs`).
 * @returns completed and failed jobs per queue
 */
export async function drainOnce<T extends TaskDescriptor>(
  boss: PgBoss,
  tasks: readonly T[],
  deps: DepsFor<T>,
  opts: { maxJobs?: number } = {},
): Promise<DrainReport> {
  const maxJobs = opts.maxJobs ?? 10_000;
  const report: DrainReport = {};
  let ran = 0;
  for (;;) {
    let found = false;
    for (const t of tasks) {
      const name = t.queue(deps.region);
      for (;;) {
        const [job] = await boss.fetch<unknown>(name, { batchSize: 1 });
        if (!job) break;
        found = true;
        if (++ran > maxJobs) throw new Error(`drainOnce: more than ${maxJobs} jobs (a task that keeps enqueueing itself?)`);
        const r = (report[name] ??= { completed: 0, failed: 0 });
        try {
          const out = await runJob(t, deps, job);
          await boss.complete(name, job.id, out !== null && typeof out === 'object' ? (out as object) : { value: out ?? null });
          r.completed += 1;
        } catch (err) {
          await boss.fail(name, job.id, { message: err instanceof Error ? err.message : String(err) });
          r.failed += 1;
        }
      }
    }
    if (!found) return report;
  }
}
