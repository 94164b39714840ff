/**
 * Prometheus metrics (prom-client), all named `tokenpace_*`. Three sources meet in one scrape of
 * the web's /metrics (docs/decisions/091-metrics-across-processes.md):
 * - web-local: HTTP request durations by route, and the web's Node runtime figures (event-loop
 *   delay, heap, RSS), registered by bin/web-observability.cjs in the web process;
 * - worker-local: probes by outcome / error kind / endpoint, probe, task and sweep durations, and
 *   each worker's runtime figures. A worker keeps them in its own registry and stores its JSON in
 *   `worker_heartbeats.metrics` with every heartbeat (15 s); the web merges the live workers'
 *   copies (label `worker_id` keeps processes apart);
 * - read from Postgres at scrape time: queue depth and lag per queue, last success age per
 *   endpoint, live workers, database up.
 */
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';

export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** Buckets (seconds) for probes and sweeps: a probe lasts up to 120 s, most well under 30 s. */
const PROBE_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];

/** The worker process's own metrics. */
export interface WorkerMetrics {
  registry: Registry;
  /** tokenpace_probes_total{outcome, error_kind, endpoint_id, region}: probes recorded (one per measurement written). */
  probes: Counter<'outcome' | 'error_kind' | 'endpoint_id' | 'region'>;
  /** tokenpace_probe_duration_seconds{outcome, region}: wall time of one probe job (claim → measurement written). */
  probeDuration: Histogram<'outcome' | 'region'>;
  /** tokenpace_sweep_duration_seconds{outcome}: wall time of one concurrency sweep (all levels). */
  sweepDuration: Histogram<'outcome'>;
  /** tokenpace_task_duration_seconds{task, outcome}: schedule-probes fan-out, rollups, retention. */
  taskDuration: Histogram<'task' | 'outcome'>;
  /** tokenpace_probe_slots_recovered_total{action}: slots of dead workers re-queued or completed. */
  slotsRecovered: Counter<'action'>;
  /** Worker-local JSON for the heartbeat row. */
  toJson(): Promise<MetricsJson>;
}

/**
 * Creates the worker registry with default labels {process: worker, worker_id, region} and the Node
 * default metrics (`tokenpace_process_*`, `tokenpace_nodejs_*`, event-loop delay included).
 */
export function createWorkerMetrics(labels: { workerId: string; region: string }): WorkerMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ process: 'worker', worker_id: labels.workerId, region: labels.region });
  collectDefaultMetrics({ register: registry, prefix: 'tokenpace_', eventLoopMonitoringPrecision: 20 });
  return {
    registry,
    probes: new Counter({
      name: 'tokenpace_probes_total',
      help: 'Probes recorded, by outcome, error kind and endpoint.',
      labelNames: ['outcome', 'error_kind', 'endpoint_id', 'region'],
      registers: [registry],
    }),
    probeDuration: new Histogram({
      name: 'tokenpace_probe_duration_seconds',
      help: 'Wall time of one probe job, claim to measurement written.',
      labelNames: ['outcome', 'region'],
      buckets: PROBE_BUCKETS,
      registers: [registry],
    }),
    sweepDuration: new Histogram({
      name: 'tokenpace_sweep_duration_seconds',
      help: 'Wall time of one concurrency sweep.',
      labelNames: ['outcome'],
      buckets: [10, 30, 60, 120, 300, 600, 1200, 1800, 3600],
      registers: [registry],
    }),
    taskDuration: new Histogram({
      name: 'tokenpace_task_duration_seconds',
      help: 'Wall time of housekeeping tasks (schedule-probes fan-out, rollup, retention).',
      labelNames: ['task', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60],
      registers: [registry],
    }),
    slotsRecovered: new Counter({
      name: 'tokenpace_probe_slots_recovered_total',
      help: 'Probe slots of dead workers handed back to the queue (requeued) or closed because their measurement exists (completed).',
      labelNames: ['action'],
      registers: [registry],
    }),
    toJson: () => registry.getMetricsAsJSON() as Promise<MetricsJson>,
  };
}

/** Figures read from Postgres at scrape time (db/queries/operations.ts). */
export interface DatabaseFigures {
  databaseUp: boolean;
  queues: { queue: string; queued: number; active: number; lagSeconds: number }[];
  lastSuccess: { endpointId: number; endpoint: string; ageSeconds: number }[];
  liveWorkers: { region: string; count: number }[];
}

/** Builds a one-scrape registry of the Postgres-derived gauges. */
export function buildDatabaseRegistry(f: DatabaseFigures): Registry {
  const registry = new Registry();
  new Gauge({ name: 'tokenpace_database_up', help: '1 when the web reached Postgres during this scrape, else 0.', registers: [registry] }).set(
    f.databaseUp ? 1 : 0,
  );
  const depth = new Gauge({
    name: 'tokenpace_queue_depth',
    help: 'Jobs per queue and state (queued = created or retry, active = being worked).',
    labelNames: ['queue', 'state'],
    registers: [registry],
  });
  const lag = new Gauge({
    name: 'tokenpace_queue_lag_seconds',
    help: 'Age of the oldest due job still waiting in the queue (0 when none waits).',
    labelNames: ['queue'],
    registers: [registry],
  });
  for (const q of f.queues) {
    depth.set({ queue: q.queue, state: 'queued' }, q.queued);
    depth.set({ queue: q.queue, state: 'active' }, q.active);
    lag.set({ queue: q.queue }, q.lagSeconds);
  }
  const age = new Gauge({
    name: 'tokenpace_endpoint_last_success_age_seconds',
    help: 'Seconds since the last successful probe of each active endpoint (any workload, any region).',
    labelNames: ['endpoint_id', 'endpoint'],
    registers: [registry],
  });
  for (const e of f.lastSuccess) age.set({ endpoint_id: String(e.endpointId), endpoint: e.endpoint }, e.ageSeconds);
  const workers = new Gauge({
    name: 'tokenpace_workers_live',
    help: 'Workers with a heartbeat in the last 60 s, by region.',
    labelNames: ['region'],
    registers: [registry],
  });
  for (const w of f.liveWorkers) workers.set({ region: w.region }, w.count);
  return registry;
}

/**
 * Merges metric JSON from several processes and registries into one exposition (Prometheus text
 * format 0.0.4). Series with the same name and labels are summed; processes differ by label.
 */
export async function renderMergedMetrics(parts: MetricsJson[]): Promise<{ body: string; contentType: string }> {
  const merged = AggregatorRegistry.aggregate(parts as Parameters<typeof AggregatorRegistry.aggregate>[0]);
  return { body: await merged.metrics(), contentType: merged.contentType };
}
