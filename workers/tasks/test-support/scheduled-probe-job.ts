/**
 * A scheduled probe job as the probe queue delivers it to runScheduledProbe: `{ id, data,
 * retryCount: 0 }` for `endpointId` and `workloadId` in region `test`, in the slot starting at
 * minute `minute` of 2026-11-30 12:00 UTC (give each job its own minute: one job key per slot).
 */
import { buildProbeJobKey } from '../../queues';

export function scheduledProbeJob(endpointId: number, workloadId: number, minute: number) {
  const slotStart = new Date(Date.UTC(2026, 10, 30, 12, minute)).toISOString();
  const data = {
    endpointId,
    workloadId,
    region: 'test',
    slotStart,
    jobKey: buildProbeJobKey({ endpointId, workloadId, region: 'test', slotStart }),
  };
  return { id: `job-${data.jobKey}`, data, retryCount: 0 };
}
