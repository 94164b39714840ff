/**
 * Runs one probe job as the probe queue would hand it over, in region `local`: job key
 * `probe:{endpointId}:{workloadId}:local:{slotStart}` (slotStart an ISO instant), queue job id
 * `boss-{jobKey}`, fidelity check off unless asked. Returns the job key (to find its measurement
 * rows) and the task's result.
 */
import { runProbeJob, type ProbeTaskContext } from '../probe-endpoint';

export async function runLocalProbe(ctx: ProbeTaskContext, p: { endpointId: number; workloadId: number; slotStart: string; fidelity?: boolean }) {
  const jobKey = `probe:${p.endpointId}:${p.workloadId}:local:${p.slotStart}`;
  const result = await runProbeJob(ctx, `boss-${jobKey}`, {
    endpointId: p.endpointId,
    workloadId: p.workloadId,
    region: 'local',
    slotStart: p.slotStart,
    jobKey,
    fidelity: p.fidelity ?? false,
  });
  return { jobKey, result };
}

/** The ISO instant of minute `minute` (0–59) of hour `hour` (0–23) on 2026-12-01 UTC: one slot a probe. */
export function decemberSlot(hour: number, minute: number): string {
  return `2026-12-01T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;
}
