/**
 * The sweep job contract shared by the web process (which sends a job when a sweep is requested)
 * and the workers (which run it): queue name, payload schema, send options.
 */
import { z } from 'zod';
import { QUEUES } from '@/lib/queues';

/** Queue of sweep jobs (lib/queues.ts). */
export const RUN_SWEEP_QUEUE = QUEUES.runSweep;

/** Payload of a sweep job: `unknown` until parsed here. */
export const runSweepPayloadSchema = z.object({ sweepId: z.number().int().positive() });
export type RunSweepPayload = z.infer<typeof runSweepPayloadSchema>;

/** pg-boss send options of a sweep job: keyed by sweep so re-sends collapse; a sweep may take hours; no automatic retry (a retried sweep would re-probe without the owner asking). */
export function sweepJobOptions(sweepId: number) {
  return { singletonKey: `sweep:${sweepId}`, expireInSeconds: 3 * 60 * 60, retryLimit: 0 };
}
