/**
 * Uptime windows against hand-placed probes at fixed instants: each window counts exactly the
 * probes after its start and up to `now`, successes over n, cancelled probes left out, a region
 * filter, and the recent strip newest first.
 */
import { beforeAll, expect, it } from 'vitest';
import { measurements } from '../schema';
import { anyEndpointAndWorkload } from '../test-support/any-endpoint-and-workload';
import { useTestDatabase } from '../test-support/use-test-database';
import { computeUptimeWindow } from '@/lib/stats/uptime';
import { getEndpointUptime } from './uptime';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const t = useTestDatabase({ seed: { lookupEnv: () => 'x', referencePort: 3999 } });
let endpointId: number;

beforeAll(async () => {
  let workloadId: number;
  ({ endpointId, workloadId } = await anyEndpointAndWorkload(t.db));
  // minutes before NOW, outcome, error kind, region
  const probes: Array<[number, 'success' | 'error', string | null, string]> = [
    [1, 'success', null, 'eu'], // 5m
    [3, 'error', 'timeout', 'us'], // 5m
    [4, 'error', 'cancelled', 'eu'], // not counted anywhere
    [10, 'success', null, 'us'], // 30m
    [20, 'error', 'http_error', 'eu'], // 30m
    [120, 'success', null, 'eu'], // 1d
    [3 * 1440, 'success', null, 'us'], // 7d
    [8 * 1440, 'error', 'timeout', 'eu'], // outside every window
    [-5, 'error', 'timeout', 'eu'], // after NOW: not yet
  ];
  await t.db.insert(measurements).values(
    probes.map(([min, outcome, errorKind, region], i) => ({
      jobKey: `uptime:${i}`,
      endpointId,
      workloadId,
      measuredAt: new Date(NOW.getTime() - min * 60_000),
      workerRegion: region,
      workerVersion: 'test',
      outcome,
      errorKind,
      rankable: outcome === 'success',
      notRankableReasons: outcome === 'success' ? [] : ['failed'],
      contentChunks: 0,
      valid: true,
    })),
  );
});

it('counts successes over n per trailing window, without cancelled probes or the future', async () => {
  const u = await getEndpointUptime(t.db, { endpointId, now: NOW });
  expect(u.windows).toEqual({
    '5m': computeUptimeWindow(1, 2),
    '30m': computeUptimeWindow(2, 4),
    '1d': computeUptimeWindow(3, 5),
    '7d': computeUptimeWindow(4, 6),
  });
  expect(u.windows['30m'].successFraction).toBe(0.5);
  expect(u.recent.map((r) => r.outcome)).toEqual(['success', 'error', 'success', 'error', 'success', 'success', 'error']);
  expect(u.recent[0]!.measuredAt).toBe(new Date(NOW.getTime() - 60_000).toISOString());
});

it('filters by worker region', async () => {
  const u = await getEndpointUptime(t.db, { endpointId, now: NOW, region: 'us' });
  expect(u.region).toBe('us');
  expect(u.windows['5m']).toEqual(computeUptimeWindow(0, 1));
  expect(u.windows['7d']).toEqual(computeUptimeWindow(2, 3));
});

it('reports no probes as null, not 0 % or 100 %', async () => {
  const u = await getEndpointUptime(t.db, { endpointId, now: new Date('2020-01-01T00:00:00Z') });
  expect(u.windows['7d']).toEqual({ n: 0, successes: 0, successFraction: null });
  expect(() => computeUptimeWindow(3, 2)).toThrow(RangeError);
});
