/**
 * Tasks as data (issue 28 item 3, docs/decisions/252): every worker task file exports ONE
 * descriptor saying which process role runs it, its queue (name from lib/queues.ts) and queue
 * options, its schedule (if recurring), a job to send at worker start (if any) and its handler for
 * one job. workers/main.ts loops over the list (workers/tasks/index.ts) for its role; drainOnce
 * (workers/drain.ts) runs the same handlers on what is queued now, so tests never wait for cron.
 *
 * Roles (docs/decisions/251): `probe` processes time probes and do nothing else (their region's
 * schedule fan-out, probe jobs, sweeps, which are probes too); `jobs` processes run the heavy
 * bookkeeping (rollups, answer precompute, retention, dumps, sweep dispatch), so nothing shares
 * the probe's clock. Any number of each scale out against one Postgres.
 */
import type { PgBoss, Queue, QueuePolicy, WorkOptions } from 'pg-boss';
import type { Db } from '@/db/client';
import type { Env } from '@/lib/env';
import type { Logger } from '@/lib/observability/logger';
import type { WorkerMetrics } from '@/lib/observability/metrics';
import type { EndpointLock } from './endpoint-lock';
import type { ProbeTaskContext } from './tasks/probe-endpoint';
import type { SweepTaskContext } from './tasks/sweep-task-context';

/** Process roles of `workers/main.ts --role`. */
export const WORKER_ROLES = ['probe', 'jobs'] as const;
export type WorkerRole = (typeof WORKER_ROLES)[number];

/** What every task handler may use. `now()` is the clock of job-level decisions (tests may set it). */
export interface TaskDeps {
  db: Db;
  boss: PgBoss;
  /** The process's region label (TOKENPACE_WORKER_REGION). */
  region: string;
  env: Env;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  metrics: WorkerMetrics;
  now: () => Date;
}

/** What probe-role handlers use beyond TaskDeps: the probe context, the endpoint lock, sweep context. */
export interface ProbeRoleDeps extends TaskDeps {
  probe: ProbeTaskContext;
  endpointLock: EndpointLock;
  sweep: SweepTaskContext;
  /** pg-boss expiry of a probe job (s): a whole probe plus a minute. */
  probeJobExpireSeconds: number;
}

/** The fields of a pg-boss job a handler reads (payloads are `unknown` until the handler parses them). */
export interface TaskJob {
  id: string;
  data: unknown;
  retryCount: number;
  signal?: AbortSignal;
}

interface TaskBase<D> {
  /** Task name: the `task` label of tokenpace_task_duration_seconds and the log. */
  task: string;
  description: string;
  /** The queue of this task for a process of `region` (per-region tasks use it; the rest ignore it). */
  queue: (region: string) => string;
  /** pg-boss queue options (policy, notify, heartbeatSeconds, ...); applied by create and update. */
  queueOptions: Omit<Queue, 'name'>;
  /** pg-boss work options (concurrency, polling); default pg-boss's. */
  workOptions?: WorkOptions;
  /** Recurring: the cron (pg-boss, UTC) and the payload of each firing. No cron exists outside these. */
  schedule?: { cron: (env: Env) => string; data: (region: string) => object };
  /** A job sent when a worker of this role starts (e.g. probe right away, the week's dump). */
  atStart?: (region: string) => object;
  /** Whether metrics time this task (tokenpace_task_duration_seconds); probes have their own. */
  timed: boolean;
  /** Runs one job; its resolved value becomes the job's output in pgboss.job. Throws to fail it. */
  run: (deps: D, job: TaskJob) => Promise<unknown>;
}

/** A task of the probe role (needs the probe context). */
export interface ProbeRoleTask extends TaskBase<ProbeRoleDeps> {
  role: 'probe';
}
/** A task of the jobs role. */
export interface JobsRoleTask extends TaskBase<TaskDeps> {
  role: 'jobs';
}
export type TaskDescriptor = ProbeRoleTask | JobsRoleTask;

/**
 * The jobs role's housekeeping task (rollup, answer precompute, retention, partitions, dump, sweep
 * dispatch): one queue, the same in every region, under one policy; a fixed UTC cron whose firings
 * carry no payload; timed by the task metric. `alsoAtStart` sends one job when a jobs worker starts.
 */
export function defineHousekeepingTask(t: {
  task: string;
  description: string;
  queue: { name: string; policy: QueuePolicy };
  schedule: { cron: string; alsoAtStart?: boolean };
  run: JobsRoleTask['run'];
}): JobsRoleTask {
  return {
    task: t.task,
    role: 'jobs',
    description: t.description,
    queue: () => t.queue.name,
    queueOptions: { policy: t.queue.policy },
    schedule: { cron: () => t.schedule.cron, data: () => ({}) },
    ...(t.schedule.alsoAtStart ? { atStart: () => ({}) } : {}),
    timed: true,
    run: t.run,
  };
}
