/**
 * Task: schedule-probes (every probe cron tick, once per region).
 * Fans out one probe job per active endpoint × scheduled workload, keyed by slot so a slot is
 * enqueued once however many times this runs (deterministic pg-boss job id + slot claim table).
 */
import { createHash } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { Db } from '@/db/client';
import { listDueProbeTargets } from '@/db/queries/probe-targets';
import { buildProbeJobKey, probeQueueName, type ProbeJobPayload } from '../queues';

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
 * Enqueues the probe jobs for `region` at `now`. Returns how many were new (duplicates of an
 * already-enqueued slot are not counted). `expireInSeconds` bounds a stuck probe.
 */
export async function scheduleProbes(
  db: Db,
  boss: PgBoss,
  params: { region: string; now: Date; expireInSeconds: number },
): Promise<{ enqueued: number; targets: number }> {
  const slotStart = slotStartFor(params.now);
  const targets = await listDueProbeTargets(db, params.now);
  let enqueued = 0;
  for (const t of targets) {
    const payload: ProbeJobPayload = {
      endpointId: t.endpointId,
      workloadId: t.workloadId,
      region: params.region,
      slotStart,
      jobKey: buildProbeJobKey({ endpointId: t.endpointId, workloadId: t.workloadId, region: params.region, slotStart }),
    };
    const id = await boss.send(probeQueueName(params.region), payload, {
      id: jobIdForKey(payload.jobKey),
      // One stream at a time per endpoint and region: TPS/user is a single-stream figure, and
      // parallel probes of one endpoint would compete with each other (and with the provider's batching).
      group: { id: `endpoint-${t.endpointId}` },
      retryLimit: 1,
      retryDelay: 5,
      expireInSeconds: params.expireInSeconds,
    });
    if (id) enqueued += 1;
  }
  return { enqueued, targets: targets.length };
}
