/**
 * One job of the probe queue (workers/main.ts): a scheduled probe run under the endpoint lock
 * (workers/endpoint-lock.ts, decisions 141 and 142), counted in the worker's metrics and logged.
 *
 * Three ways a job can end without a measurement, each honest about why:
 * - the endpoint is under a concurrency sweep (EndpointSweepingError, decision 142): the job
 *   COMPLETES with `{ status: 'skipped', reason: 'endpoint-sweeping' }` (its pg-boss output), no
 *   slot claim, no measurement, counted as tokenpace_probes_total{outcome="skipped",
 *   error_kind="endpoint-sweeping"} and logged (info). Uptime and success rates are computed from
 *   measurements only (db/queries/uptime.ts), so the slot is not downtime; a probe during the
 *   sweep would have measured a loaded endpoint, and its stream would have disturbed the sweep.
 * - the lock wait ran out (EndpointLockTimeoutError): the job FAILS and pg-boss retries it
 *   (decision 141): it is the worker, not the endpoint, that could not probe.
 * - the slot was claimed already or the endpoint is gone: skipped by runProbeJob itself.
 */
import type { Logger } from '@/lib/observability/logger';
import type { WorkerMetrics } from '@/lib/observability/metrics';
import { EndpointLockTimeoutError, EndpointSweepingError, type EndpointLock } from './endpoint-lock';
import { recordProbeMetrics } from './observe';
import { probeJobPayloadSchema, probeQueueName } from './queues';
import type { ProbeRoleTask } from './task';
import { runProbeJob, type ProbeTaskContext, type ProbeTaskResult } from './tasks/probe-endpoint';

/** What a probe job needs from the worker. */
export interface ScheduledProbeDeps {
  ctx: ProbeTaskContext;
  endpointLock: Pick<EndpointLock, 'run'>;
  metrics: WorkerMetrics;
  log: Pick<Logger, 'info' | 'warn'>;
}

/** The fields of a pg-boss job this uses. */
export interface ProbeQueueJob {
  id: string;
  /** Unparsed payload (workers/queues.ts probeJobPayloadSchema). */
  data: unknown;
  signal?: AbortSignal;
  /** pg-boss retry count (0 on the first attempt). */
  retryCount: number;
}

/**
 * Runs one probe job. Resolves with the task's result (also `skipped / endpoint-sweeping`);
 * rejects, so that pg-boss fails and retries the job, on a lock-wait timeout, an abort, a malformed
 * payload or a database error.
 */
export async function runScheduledProbe(deps: ScheduledProbeDeps, job: ProbeQueueJob): Promise<ProbeTaskResult> {
  const { ctx, endpointLock, metrics, log } = deps;
  const payload = probeJobPayloadSchema.parse(job.data);
  let r: ProbeTaskResult;
  try {
    r = await endpointLock.run(
      payload.endpointId,
      async () => {
        const t0 = performance.now();
        const result = await runProbeJob(ctx, job.id, payload, job.signal);
        recordProbeMetrics(metrics, payload, result, (performance.now() - t0) / 1000);
        return result;
      },
      { signal: job.signal },
    );
  } catch (err) {
    if (err instanceof EndpointSweepingError) {
      // Not a measurement and not a failure: the endpoint was busy with a sweep this service runs.
      const skipped: ProbeTaskResult = { status: 'skipped', reason: 'endpoint-sweeping' };
      recordProbeMetrics(metrics, payload, skipped, 0);
      log.info(
        { jobKey: payload.jobKey, endpointId: payload.endpointId },
        'probe skipped: endpoint under a concurrency sweep (no measurement, not counted as downtime)',
      );
      return skipped;
    }
    // Not a measurement (the endpoint was never asked): the job fails and pg-boss retries it
    // (retryLimit 1, 5 s later; the slot is not claimed yet); after that it stays failed in pgboss.job.
    if (err instanceof EndpointLockTimeoutError)
      log.warn(
        { jobKey: payload.jobKey, endpointId: payload.endpointId, waitedMs: err.waitedMs, attempt: job.retryCount + 1 },
        'endpoint still busy after the probe lock wait: job failed (pg-boss retries it while it has retries left)',
      );
    throw err;
  }
  if (r.status === 'recorded' && r.outcome === 'error') log.info({ jobKey: payload.jobKey, errorKind: r.errorKind }, 'probe failed');
  return r;
}

/** pg-boss job heartbeat of probe jobs (s, pg-boss minimum 10): a killed worker's probe is failed and retried after this (decision 092). */
export const PROBE_JOB_HEARTBEAT_SECONDS = 10;

/**
 * The probe queue's descriptor (workers/task.ts): probe role, the region's `probe-<region>` queue
 * with job heartbeats; 8 probes at a time per process, one per endpoint (groupConcurrency 1 and the
 * endpoint lock, decision 141). notifyPollingIntervalSeconds 1: a finished probe does not NOTIFY,
 * so the next job of the same endpoint group waits for the backstop poll (pg-boss's 30 s default
 * let a calibration endpoint with 16 probes per slot fall behind, issue 14's grid). batchSize 1:
 * the one result becomes the job's output (e.g. skipped: endpoint-sweeping).
 */
export const probeTask: ProbeRoleTask = {
  task: 'probe',
  role: 'probe',
  description: 'One probe of one endpoint × workload × region × slot, under the endpoint lock.',
  queue: probeQueueName,
  queueOptions: { policy: 'standard', notify: true, heartbeatSeconds: PROBE_JOB_HEARTBEAT_SECONDS },
  workOptions: { localConcurrency: 8, batchSize: 1, groupConcurrency: 1, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 },
  timed: false, // probes have their own metrics (recordProbeMetrics)
  run: (deps, job) => runScheduledProbe({ ctx: deps.probe, endpointLock: deps.endpointLock, metrics: deps.metrics, log: deps.log }, job),
};
