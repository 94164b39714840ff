/**
 * Glue between probe jobs and the worker's metrics (lib/observability/metrics.ts): per probe the
 * counter by outcome / error kind / endpoint and its wall time (task durations: workers/run-tasks.ts).
 * Kept out of the task files so measuring code stays free of bookkeeping.
 */
import type { WorkerMetrics } from '@/lib/observability/metrics';
import type { ProbeJobPayload } from './queues';
import type { ProbeTaskResult } from './tasks/probe-endpoint';

/**
 * Counts one probe job: recorded and duplicate results count once per measurement outcome;
 * skipped jobs (slot already claimed, endpoint gone, endpoint under a concurrency sweep) count under
 * outcome "skipped" with the reason as error_kind (`endpoint-sweeping`: decision 142).
 */
export function recordProbeMetrics(metrics: WorkerMetrics, job: ProbeJobPayload, result: ProbeTaskResult, seconds: number): void {
  const outcome = result.status === 'skipped' ? 'skipped' : result.outcome;
  const errorKind = result.status === 'skipped' ? result.reason : (result.errorKind ?? 'none');
  if (result.status !== 'duplicate') {
    metrics.probes.inc({ outcome, error_kind: errorKind, endpoint_id: String(job.endpointId), region: job.region });
  }
  metrics.probeDuration.observe({ outcome, region: job.region }, seconds);
}
