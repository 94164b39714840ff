/**
 * Task: schedule-probes (every probe cron tick, once per region).
 * Fans out one probe job per active endpoint × workload DUE in this slot (lib/probe/cadence: the
 * headline workload every slot, every other workload of the grid 8 times a day at a spread phase,
 * calibration endpoints everything every slot), keyed by slot so a slot is enqueued once however
 * many times this runs (deterministic pg-boss job id + slot claim table). Jobs are grouped per
 * endpoint (group concurrency 1 in workers/main.ts), so one endpoint's jobs mostly wait in the queue;
 * the endpoint lock (workers/endpoint-lock.ts, decision 141) makes sure its probes never overlap.
 * A probe is a fidelity probe (lib/fidelity) when its endpoint × workload had none in the last
 * hour, plus a configurable fraction of the rest.
 */
import { createHash } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { Db } from '@/db/client';
import { listDueProbeTargets, listRecentFidelityPairs } from '@/db/queries/probe-targets';
import { isFidelityProbe, listDueWorkloadSlugs, slotMinutesForCron } from '@/lib/probe/cadence';
import { buildProbeJobKey, probeQueueName, scheduleProbesPayloadSchema, scheduleProbesQueueName, type ProbeJobPayload } from '../queues';
import type { ProbeRoleTask } from '../task';

/** Slot start: `now` floored to the slot length (minutes), as an ISO string. */
export function slotStartFor(now: Date, slotMinutes = 1): string {
  const ms = slotMinutes * 60_000;
  return new Date(Math.floor(now.getTime() / ms) * ms).toISOString();
}

/** A stable UUID (v5-shaped, from SHA-1) for a job key, so re-sending a slot is a no-op. */
export function jobIdForKey(key: string): string {
  const h = createHash('sha1').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Enqueues one probe job on its region's probe queue, keyed by its job key (a second send of one
 * slot is a no-op: returns false). `expireInSeconds` bounds a stuck probe. The one place a probe job
 * is sent: the schedule's fan-out, and tests that probe named endpoints now (e2e/support/probe-now.ts).
 */
export async function sendProbeJob(boss: PgBoss, payload: ProbeJobPayload, expireInSeconds: number): Promise<boolean> {
  const id = await boss.send(probeQueueName(payload.region), payload, {
    id: jobIdForKey(payload.jobKey),
    // One stream at a time per endpoint and region: TPS/user is a single-stream figure, and
    // parallel probes of one endpoint would compete with each other (and with the provider's batching).
    group: { id: `endpoint-${payload.endpointId}` },
    retryLimit: 1,
    retryDelay: 5,
    expireInSeconds,
  });
  return id !== null;
}

/** Default share of non-mandatory probes that are fidelity probes (TOKENPACE_FIDELITY_FRACTION). */
export const DEFAULT_FIDELITY_FRACTION = 0.1;

/**
 * Enqueues the probe jobs for `region` at `now`. Returns how many were new (duplicates of an
 * already-enqueued slot are not counted), how many targets were due, and how many of the new ones
 * are fidelity probes. `expireInSeconds` bounds a stuck probe; `slotMinutes` is the cron's slot
 * length (lib/probe/cadence slotMinutesForCron); `fidelityFraction` in [0, 1].
 */
export async function scheduleProbes(
  db: Db,
  boss: PgBoss,
  params: { region: string; now: Date; expireInSeconds: number; slotMinutes?: number; fidelityFraction?: number },
): Promise<{ enqueued: number; targets: number; fidelity: number }> {
  const slotStart = slotStartFor(params.now);
  const { endpoints, workloads } = await listDueProbeTargets(db, params.now);
  const recentFidelity = await listRecentFidelityPairs(db, new Date(params.now.getTime() - 3_600_000));
  const workloadIds = new Map(workloads.map((w) => [w.slug, w.id]));
  let enqueued = 0;
  let targets = 0;
  let fidelity = 0;
  for (const e of endpoints) {
    for (const slug of listDueWorkloadSlugs(e, new Date(slotStart), params.slotMinutes ?? 1)) {
      const workloadId = workloadIds.get(slug);
      if (workloadId === undefined) continue; // not (yet) seeded
      targets += 1;
      const jobKey = buildProbeJobKey({ endpointId: e.id, workloadId, region: params.region, slotStart });
      const payload: ProbeJobPayload = {
        endpointId: e.id,
        workloadId,
        region: params.region,
        slotStart,
        jobKey,
        fidelity: isFidelityProbe(jobKey, recentFidelity.has(`${e.id}:${workloadId}`), params.fidelityFraction ?? DEFAULT_FIDELITY_FRACTION),
      };
      if (await sendProbeJob(boss, payload, params.expireInSeconds)) {
        enqueued += 1;
        if (payload.fidelity) fidelity += 1;
      }
    }
  }
  return { enqueued, targets, fidelity };
}

/**
 * The descriptor (workers/task.ts): probe role, the region's own schedule queue (policy `short`: one
 * keyless firing waits at most; decision 250), fired by the probe cron and once at worker start. A
 * firing may carry `slotStart` to schedule that slot now (the settable trigger). Its output in
 * pgboss.job is what it enqueued.
 */
export const scheduleProbesTask: ProbeRoleTask = {
  task: 'schedule-probes',
  role: 'probe',
  description: 'Fan out one keyed probe job per active endpoint × due workload for this region and slot.',
  queue: scheduleProbesQueueName,
  queueOptions: { policy: 'short', notify: true },
  schedule: { cron: (env) => env.TOKENPACE_PROBE_CRON, data: (region) => ({ region }) },
  atStart: (region) => ({ region }),
  timed: true,
  run: async (deps, job) => {
    const payload = scheduleProbesPayloadSchema.parse(job.data);
    // This queue is this region's alone: another region's payload here is a bug, not a firing to drop.
    if (payload.region !== deps.region) throw new Error(`schedule job for region "${payload.region}" in the queue of region "${deps.region}"`);
    const r = await scheduleProbes(deps.db, deps.boss, {
      region: deps.region,
      now: payload.slotStart ? new Date(payload.slotStart) : deps.now(),
      expireInSeconds: deps.probeJobExpireSeconds,
      slotMinutes: slotMinutesForCron(deps.env.TOKENPACE_PROBE_CRON),
      fidelityFraction: deps.env.TOKENPACE_FIDELITY_FRACTION,
    });
    if (r.enqueued > 0) deps.log.info({ enqueued: r.enqueued, targets: r.targets, region: deps.region }, 'scheduled probes');
    return r;
  },
};
