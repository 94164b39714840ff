/**
 * Operational queries at fixed instants: live workers by heartbeat age, queues before pg-boss is
 * installed, last success age per active endpoint, and regions from rollups plus live workers.
 */
import { expect, it } from 'vitest';
import { endpoints, measurements, workloads } from '../schema';
import { useTestDatabase } from '../test-support/use-test-database';
import { listLastSuccessAges, listLiveWorkers, listQueueFigures, listRegions, upsertWorkerHeartbeat, deleteWorkerHeartbeat } from './operations';
import { eq } from 'drizzle-orm';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const t = useTestDatabase({ seed: { referencePort: 3999 } });

const worker = (id: string, region: string, role = 'probe') => ({ workerId: id, pid: 1, host: 'h', region, role, version: 'v', startedAt: NOW });

it('lists workers with a heartbeat in the last 60 s, newest first; a clean stop removes the row', async () => {
  await upsertWorkerHeartbeat(t.db, worker('h:1', 'eu'), new Date(NOW.getTime() - 5_000), []);
  await upsertWorkerHeartbeat(t.db, worker('h:2', 'us'), new Date(NOW.getTime() - 1_000), [{ name: 'x' }]);
  await upsertWorkerHeartbeat(t.db, worker('h:3', 'us'), new Date(NOW.getTime() - 61_000), []);
  const live = await listLiveWorkers(t.db, NOW, 60_000);
  expect(live.map((w) => w.workerId)).toEqual(['h:2', 'h:1']);
  expect(live[0]).toMatchObject({ pid: 1, host: 'h', region: 'us', version: 'v', lastHeartbeatAt: new Date(NOW.getTime() - 1_000).toISOString() });
  await deleteWorkerHeartbeat(t.db, 'h:3', NOW);
  expect((await listLiveWorkers(t.db, NOW, 3_600_000)).map((w) => w.workerId)).toEqual(['h:2', 'h:1']);
});

it('has no queues before pg-boss installed its schema', async () => {
  expect(await listQueueFigures(t.db, NOW)).toEqual([]);
});

it('gives the age of the last success per active endpoint, null when none', async () => {
  const [calibration] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.isCalibration, true));
  const [wl] = await t.db.select({ id: workloads.id }).from(workloads).limit(1);
  await t.db.insert(measurements).values([
    {
      jobKey: 'ops:1',
      endpointId: calibration!.id,
      workloadId: wl!.id,
      measuredAt: new Date(NOW.getTime() - 90_000),
      workerRegion: 'eu',
      workerVersion: 't',
      outcome: 'success',
      contentChunks: 1,
      valid: true,
    },
    {
      jobKey: 'ops:2',
      endpointId: calibration!.id,
      workloadId: wl!.id,
      measuredAt: new Date(NOW.getTime() - 30_000),
      workerRegion: 'eu',
      workerVersion: 't',
      outcome: 'error',
      errorKind: 'timeout',
      rankable: false,
      notRankableReasons: ['failed'],
      contentChunks: 0,
      valid: true,
    },
  ]);
  const ages = await listLastSuccessAges(t.db, NOW);
  expect(ages.find((a) => a.endpointId === calibration!.id)?.ageSeconds).toBe(90);
});

it("lists regions with live probe workers (no rollups yet: zero measurements); a jobs worker is no region's prober", async () => {
  await upsertWorkerHeartbeat(t.db, worker('h:4', 'ap', 'jobs'), new Date(NOW.getTime() - 1_000), []);
  await upsertWorkerHeartbeat(t.db, worker('h:5', 'eu', 'jobs'), new Date(NOW.getTime() - 1_000), []);
  expect((await listLiveWorkers(t.db, NOW, 60_000)).find((w) => w.workerId === 'h:4')).toMatchObject({ role: 'jobs', region: 'ap' });
  const regions = await listRegions(t.db, NOW);
  expect(regions.find((r) => r.region === 'ap')).toBeUndefined();
  const us = regions.find((r) => r.region === 'us');
  expect(us).toMatchObject({ liveWorkers: 1 });
  const eu = regions.find((r) => r.region === 'eu');
  expect(eu).toMatchObject({ liveWorkers: 1, measurements: 0, lastMeasuredAt: null });
  expect(regions.map((r) => r.region)).toEqual([...regions.map((r) => r.region)].sort());
});

it("a region's lastMeasuredAt is its newest measurement, never the end of its hour (in the future)", async () => {
  const { rebuildRollups } = await import('./rollups');
  const [calibration] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.isCalibration, true));
  const [wl] = await t.db.select({ id: workloads.id }).from(workloads).limit(1);
  // 11:10 and 11:50 in the hour 11:00-12:00, and 11:59:59.999 just before NOW (12:00): the newest is the answer.
  const at = (iso: string) => new Date(iso);
  await t.db.insert(measurements).values([
    {
      jobKey: 'ops:ap:1',
      endpointId: calibration!.id,
      workloadId: wl!.id,
      measuredAt: at('2026-11-30T11:10:00.000Z'),
      workerRegion: 'ap',
      workerVersion: 't',
      outcome: 'success',
      contentChunks: 1,
      valid: true,
    },
    {
      jobKey: 'ops:ap:2',
      endpointId: calibration!.id,
      workloadId: wl!.id,
      measuredAt: at('2026-11-30T11:50:00.000Z'),
      workerRegion: 'ap',
      workerVersion: 't',
      outcome: 'success',
      contentChunks: 1,
      valid: true,
    },
    {
      jobKey: 'ops:sa:1',
      endpointId: calibration!.id,
      workloadId: wl!.id,
      measuredAt: at('2026-11-30T11:59:59.999Z'),
      workerRegion: 'sa',
      workerVersion: 't',
      outcome: 'success',
      contentChunks: 1,
      valid: true,
    },
  ]);
  await rebuildRollups(t.db, { granularity: 'hour', from: at('2026-11-30T11:00:00.000Z'), to: NOW, wallNow: NOW });
  const regions = await listRegions(t.db, NOW);
  expect(regions.find((r) => r.region === 'ap')?.lastMeasuredAt).toBe('2026-11-30T11:50:00.000Z');
  expect(regions.find((r) => r.region === 'sa')?.lastMeasuredAt).toBe('2026-11-30T11:59:59.999Z');
  // Asked at 11:55 (the hour not over): nothing after `now` and nothing in the future.
  const early = await listRegions(t.db, at('2026-11-30T11:55:00.000Z'));
  expect(early.find((r) => r.region === 'ap')?.lastMeasuredAt).toBe('2026-11-30T11:50:00.000Z');
  for (const r of early) if (r.lastMeasuredAt) expect(new Date(r.lastMeasuredAt).getTime()).toBeLessThanOrEqual(at('2026-11-30T11:55:00.000Z').getTime());
});
