import { z } from 'zod';
import { LEGACY_SCHEDULE_PROBES_QUEUE, QUEUES, probeQueueName, scheduleProbesQueueName } from '@/lib/queues';

/**
 * Job payload schemas (queue names: lib/queues.ts, re-exported here for the workers). Payloads are
 * `unknown` until parsed here, so a malformed job fails loudly instead of probing the wrong thing.
 */
export { LEGACY_SCHEDULE_PROBES_QUEUE, QUEUES, probeQueueName, scheduleProbesQueueName };
export const ROLLUP_QUEUE = QUEUES.rollupMeasurements;
export const RETENTION_QUEUE = QUEUES.applyRetention;

/**
 * Payload of a schedule-probes firing. `slotStart` (ISO instant) is absent in cron firings (the
 * handler takes the current slot); a test or an operator sets it to schedule a given slot at once
 * (the settable schedule trigger: no waiting for a cron minute).
 */
export const scheduleProbesPayloadSchema = z.object({ region: z.string().min(1), slotStart: z.string().datetime().optional() });
export type ScheduleProbesPayload = z.infer<typeof scheduleProbesPayloadSchema>;

export const probeJobPayloadSchema = z.object({
  endpointId: z.number().int().positive(),
  workloadId: z.number().int().positive(),
  region: z.string().min(1),
  /** ISO instant of the slot start; every endpoint in a slot gets the same prompt. */
  slotStart: z.string().datetime(),
  /** Unique key of this probe slot; becomes measurements.job_key. */
  jobKey: z.string().min(1),
  /** Send a fidelity prompt (lib/fidelity) and verify the answer; absent in jobs enqueued before fidelity existed. */
  fidelity: z.boolean().default(false),
});
export type ProbeJobPayload = z.input<typeof probeJobPayloadSchema>;

/** Key of one probe slot: endpoint × workload × region × slot start. */
export function buildProbeJobKey(p: { endpointId: number; workloadId: number; region: string; slotStart: string }): string {
  return `probe:${p.endpointId}:${p.workloadId}:${p.region}:${p.slotStart}`;
}
