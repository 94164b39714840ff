/**
 * Operational questions: worker heartbeats, queue depth and lag (pg-boss tables), last success per
 * endpoint. Read by /api/health and /metrics at request time; written by workers/heartbeat.ts.
 */
import { desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurements, workerHeartbeats } from '../schema';
import { PROBE_QUEUE_PREFIX, SCHEDULE_PROBES_QUEUE_PREFIX } from '@/lib/queues';
import type { HealthRegionSchedule } from '@/lib/observability/health';

/** A worker counts as live when its heartbeat (every 15 s) is at most this old (ms). */
export const LIVE_WORKER_MAX_AGE_MS = 60_000;

/** A worker's identity as stored in its heartbeat row. */
export interface WorkerIdentity {
  workerId: string;
  pid: number;
  host: string;
  region: string;
  /** Process role: 'probe' (times probes) or 'jobs' (rollups, answers, dumps, sweep dispatch; workers/task.ts). */
  role: string;
  version: string;
  startedAt: Date;
}

/** Inserts or refreshes a worker's heartbeat (last_heartbeat_at = `now`) with its metrics JSON. */
export async function upsertWorkerHeartbeat(db: Db, worker: WorkerIdentity, now: Date, metrics: unknown[]): Promise<void> {
  await db
    .insert(workerHeartbeats)
    .values({ ...worker, lastHeartbeatAt: now, metrics })
    .onConflictDoUpdate({ target: workerHeartbeats.workerId, set: { lastHeartbeatAt: now, metrics, version: worker.version, role: worker.role } });
}

/** Deletes a worker's heartbeat row (clean shutdown), and rows silent for more than a day. */
export async function deleteWorkerHeartbeat(db: Db, workerId: string, now: Date): Promise<void> {
  await db.delete(workerHeartbeats).where(eq(workerHeartbeats.workerId, workerId));
  await db.delete(workerHeartbeats).where(lt(workerHeartbeats.lastHeartbeatAt, new Date(now.getTime() - 86_400_000)));
}

/** A live worker as /api/health reports it (ISO instants). */
export interface LiveWorker extends Omit<WorkerIdentity, 'startedAt'> {
  startedAt: string;
  lastHeartbeatAt: string;
}

/** Workers whose last heartbeat is at most `maxAgeMs` before `now`, newest first. */
export async function listLiveWorkers(db: Db, now: Date, maxAgeMs: number): Promise<LiveWorker[]> {
  const rows = await db
    .select({
      workerId: workerHeartbeats.workerId,
      pid: workerHeartbeats.pid,
      host: workerHeartbeats.host,
      region: workerHeartbeats.region,
      role: workerHeartbeats.role,
      version: workerHeartbeats.version,
      startedAt: workerHeartbeats.startedAt,
      lastHeartbeatAt: workerHeartbeats.lastHeartbeatAt,
    })
    .from(workerHeartbeats)
    .where(gte(workerHeartbeats.lastHeartbeatAt, new Date(now.getTime() - maxAgeMs)))
    .orderBy(desc(workerHeartbeats.lastHeartbeatAt));
  return rows.map((r) => ({ ...r, startedAt: r.startedAt.toISOString(), lastHeartbeatAt: r.lastHeartbeatAt.toISOString() }));
}

/** Stored metrics JSON (prom-client) of the live workers. */
export async function listLiveWorkerMetrics(db: Db, now: Date, maxAgeMs: number): Promise<unknown[][]> {
  const rows = await db
    .select({ metrics: workerHeartbeats.metrics })
    .from(workerHeartbeats)
    .where(gte(workerHeartbeats.lastHeartbeatAt, new Date(now.getTime() - maxAgeMs)));
  return rows.map((r) => r.metrics);
}

/** One pg-boss queue's backlog: queued (created/retry), active, and the lag of its oldest due job (s). */
export interface QueueFigures {
  queue: string;
  queued: number;
  active: number;
  lagSeconds: number;
}

/**
 * Depth and lag of every pg-boss queue (schema `pgboss`), from its job table. Lag is how long the
 * oldest job that is due (start_after ≤ now) has been waiting: 0 when nothing waits. Queues with no
 * open jobs are listed with zeros; none at all before pg-boss has installed its schema.
 */
export async function listQueueFigures(db: Db, now: Date): Promise<QueueFigures[]> {
  // Before the first worker started, pg-boss has not installed its schema: no queues yet.
  const [installed] = await db.execute<{ ok: boolean }>(sql`select to_regclass('pgboss.queue') is not null as ok`);
  if (!installed?.ok) return [];
  const rows = await db.execute<{ queue: string; queued: number; active: number; lag_seconds: number }>(sql`
    select q.name as queue,
      coalesce(sum(case when j.state in ('created', 'retry') then 1 else 0 end), 0)::int as queued,
      coalesce(sum(case when j.state = 'active' then 1 else 0 end), 0)::int as active,
      coalesce(extract(epoch from (${now.toISOString()}::timestamptz - min(case when j.state in ('created', 'retry') and j.start_after <= ${now.toISOString()}::timestamptz then j.start_after end))), 0)::float8 as lag_seconds
    from pgboss.queue q
    left join pgboss.job j on j.name = q.name and j.state in ('created', 'retry', 'active')
    group by q.name
    order by q.name`);
  return [...rows].map((r) => ({ queue: r.queue, queued: Number(r.queued), active: Number(r.active), lagSeconds: Math.max(0, Number(r.lag_seconds)) }));
}

/**
 * Seconds since the last successful measurement of each active endpoint (null: never succeeded).
 * One backward index scan per endpoint (measurements_endpoint_time_idx), stopping at its latest
 * success, so the cost does not grow with history.
 */
export async function listLastSuccessAges(db: Db, now: Date): Promise<{ endpointId: number; endpoint: string; ageSeconds: number | null }[]> {
  const rows = await db.execute<{ endpoint_id: number; slug: string; at: string | null }>(sql`
    select e.id as endpoint_id, e.slug, last.at
    from ${endpoints} e
    left join lateral (
      select m.measured_at as at from ${measurements} m
      where m.endpoint_id = e.id and m.outcome = 'success'
      order by m.measured_at desc limit 1
    ) last on true
    where e.status = 'active'
    order by e.id`);
  return [...rows].map((r) => ({
    endpointId: Number(r.endpoint_id),
    endpoint: r.slug,
    ageSeconds: r.at ? Math.max(0, (now.getTime() - new Date(r.at).getTime()) / 1000) : null,
  }));
}

/** A worker region: probes measured there (hourly rollups, all time and last 7 days), when last, and its live workers. */
export interface RegionFigures {
  region: string;
  measurements: number;
  measurementsLast7d: number;
  lastMeasuredAt: string | null;
  liveWorkers: number;
}

/**
 * Every worker region that has measurements (from the hourly rollups: one small scan, no raw rows)
 * or a live probe worker (jobs workers probe nothing and do not count), sorted by name. `now` bounds the 7-day count and worker liveness (60 s).
 */
export async function listRegions(db: Db, now: Date): Promise<RegionFigures[]> {
  const since = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const rows = await db.execute<{ region: string; measurements: number; recent: number; last_at: string | null; live: number }>(sql`
    with measured as (
      select worker_region as region, sum(count)::int as measurements,
        coalesce(sum(count) filter (where bucket_start >= ${since}::timestamptz), 0)::int as recent,
        max(bucket_start) as last_hour
      from measurement_rollups where granularity = 'hour' group by worker_region
    ), newest as (
      -- The newest measurement itself, found in the newest rolled-up hour and after it (per
      -- endpoint through its (endpoint_id, measured_at) index): the hour's end would lie up to an
      -- hour in the future (issue #23 item 7).
      select m.region, max(x.measured_at) as last_at
      from measured m cross join ${endpoints} e
      cross join lateral (
        select measured_at from measurements
        where endpoint_id = e.id and measured_at >= m.last_hour and measured_at <= ${now.toISOString()}::timestamptz and worker_region = m.region
        order by measured_at desc limit 1
      ) x
      group by m.region
    ), live as (
      select region, count(*)::int as live from ${workerHeartbeats}
      where role = 'probe' and last_heartbeat_at >= ${new Date(now.getTime() - LIVE_WORKER_MAX_AGE_MS).toISOString()}::timestamptz group by region
    )
    select coalesce(m.region, l.region) as region, coalesce(m.measurements, 0) as measurements,
      coalesce(m.recent, 0) as recent, coalesce(n.last_at, case when m.last_hour is not null then least(m.last_hour + interval '1 hour', ${now.toISOString()}::timestamptz) end) as last_at, coalesce(l.live, 0) as live
    from measured m left join newest n on n.region = m.region full join live l on l.region = m.region
    order by 1`);
  return [...rows].map((r) => ({
    region: r.region,
    measurements: Number(r.measurements),
    measurementsLast7d: Number(r.recent),
    lastMeasuredAt: r.last_at ? new Date(r.last_at).toISOString() : null,
    liveWorkers: Number(r.live),
  }));
}

/**
 * The worker regions whose measurements of `workloadSlug` on `endpointIds` fall in [from, to]
 * (sorted): hourly rollups for the sealed hours, raw measurements for the hour of `to`. `region`
 * restricts the answer to that one region (then it is `[region]` or `[]`).
 */
export async function listWindowRegions(
  db: Db,
  p: { endpointIds: number[]; workloadSlug: string; from: Date; to: Date; region: string | null },
): Promise<string[]> {
  if (p.endpointIds.length === 0) return [];
  const toHour = new Date(Math.floor(p.to.getTime() / 3600_000) * 3600_000);
  const ids = `{${p.endpointIds.join(',')}}`;
  const regionFilter = p.region ? sql`and worker_region = ${p.region}` : sql``;
  const rows = await db.execute<{ region: string }>(sql`
    with w as (select id from workloads where slug = ${p.workloadSlug})
    select region from (
      select distinct worker_region as region from measurement_rollups
      where granularity = 'hour' and workload_id = (select id from w) and endpoint_id = any(${ids}::int[])
        and bucket_start >= ${p.from.toISOString()}::timestamptz and bucket_start < ${toHour.toISOString()}::timestamptz ${regionFilter}
      union
      select distinct worker_region from measurements
      where workload_id = (select id from w) and endpoint_id = any(${ids}::int[])
        and measured_at >= ${toHour.toISOString()}::timestamptz and measured_at <= ${p.to.toISOString()}::timestamptz ${regionFilter}
    ) r order by 1`);
  return [...rows].map((r) => r.region);
}

/**
 * One region's probe schedule as pg-boss holds it (queue `schedule-probes-<region>`, workers/queues.ts):
 * its cron, when it last fired (a job created), when a worker of the region last finished a firing,
 * how long the oldest firing that is due has waited unclaimed (s, 0 when none waits), when the
 * region's probe queue last received a job, and its live probe workers (heartbeat at most `liveMaxAgeMs` old).
 */
export type RegionSchedule = HealthRegionSchedule;

/**
 * Every region that has a probe schedule (every region whose worker ever started; a stopped
 * region's schedule stays and keeps firing), sorted by name. Reads pg-boss's tables by their
 * (name, created_on) and (name, completed_on) indexes: a few index probes per region. Empty before
 * pg-boss installed its schema. Queue names: lib/queues.ts.
 */
export async function listRegionSchedules(db: Db, now: Date, liveMaxAgeMs: number = LIVE_WORKER_MAX_AGE_MS): Promise<RegionSchedule[]> {
  const p = { prefix: SCHEDULE_PROBES_QUEUE_PREFIX, probeQueuePrefix: PROBE_QUEUE_PREFIX, liveMaxAgeMs };
  const [installed] = await db.execute<{ ok: boolean }>(sql`select to_regclass('pgboss.schedule') is not null as ok`);
  if (!installed?.ok) return [];
  const nowIso = now.toISOString();
  const liveSince = new Date(now.getTime() - p.liveMaxAgeMs).toISOString();
  const rows = await db.execute<{
    region: string;
    cron: string;
    fired: string | null;
    completed: string | null;
    oldest_due: string | null;
    probe_job: string | null;
    live: number;
  }>(sql`
    select substr(s.name, ${p.prefix.length + 1}) as region, s.cron,
      (select max(j.created_on) from pgboss.job j where j.name = s.name) as fired,
      (select max(j.completed_on) from pgboss.job j where j.name = s.name and j.state = 'completed') as completed,
      (select min(j.start_after) from pgboss.job j where j.name = s.name and j.state in ('created', 'retry') and j.start_after <= ${nowIso}::timestamptz) as oldest_due,
      (select max(j.created_on) from pgboss.job j where j.name = ${p.probeQueuePrefix} || substr(s.name, ${p.prefix.length + 1})) as probe_job,
      (select count(*)::int from ${workerHeartbeats} h where h.role = 'probe' and h.region = substr(s.name, ${p.prefix.length + 1}) and h.last_heartbeat_at >= ${liveSince}::timestamptz) as live
    from pgboss.schedule s
    where starts_with(s.name, ${p.prefix})
    order by 1`);
  const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);
  return [...rows].map((r) => ({
    region: r.region,
    cron: r.cron,
    lastFiredAt: iso(r.fired),
    lastCompletedAt: iso(r.completed),
    waitingSeconds: r.oldest_due ? Math.max(0, (now.getTime() - new Date(r.oldest_due).getTime()) / 1000) : 0,
    lastProbeJobAt: iso(r.probe_job),
    liveWorkers: Number(r.live),
  }));
}

/**
 * What /api/health judges (lib/observability/health.ts), read at `now`: queue figures, live
 * workers and region schedules, with one liveness bound (`liveMaxAgeMs`, default 60 s).
 */
export async function loadHealthFigures(
  db: Db,
  now: Date,
  liveMaxAgeMs: number = LIVE_WORKER_MAX_AGE_MS,
): Promise<{ queues: QueueFigures[]; workers: LiveWorker[]; schedules: RegionSchedule[] }> {
  const [queues, workers, schedules] = await Promise.all([
    listQueueFigures(db, now),
    listLiveWorkers(db, now, liveMaxAgeMs),
    listRegionSchedules(db, now, liveMaxAgeMs),
  ]);
  return { queues, workers, schedules };
}
