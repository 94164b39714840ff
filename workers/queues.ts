import { z } from 'zod';

/**
 * Queue names and job payload schemas. Payloads are `unknown` until parsed here, so a malformed
 * job fails loudly instead of probing the wrong thing.
 */
export const SCHEDULE_PROBES_QUEUE = 'schedule-probes';
export const ROLLUP_QUEUE = 'rollup-measurements';
export const RETENTION_QUEUE = 'apply-retention';

/** Probe jobs are per region: only workers of that region take them. */
export function probeQueueName(region: string): string {
  return `probe-${region}`;
}

export const scheduleProbesPayloadSchema = z.object({ region: z.string().min(1) });

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
