// A board read while the rollup job is behind, or before its first run, counts every measurement
// once (decision 301): the rollups are read only up to the job's frontier (the partials' coverage
// end) and raw rows from there. Before the rule, such a read planned whole days and hours on
// rollups that did not exist yet and lost every measurement before asOf's hour: a test that probed
// at 23:5x and read the board at 00:0x UTC saw too_few_samples. Checked against the raw-only
// reference at instants around hour and day boundaries, with the frontier on, just before and just
// after an hour boundary, and the coverage just inside and just past the 2-hour raw edge.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-support/test-database';
import { randomMeasurement } from './test-support/random-measurement';
import { seedAllActive } from './test-support/seed-all-active';
import { insertMeasurement } from './queries/measurements';
import { rebuildRollups } from './queries/rollups';
import { getPartialCoverage } from './queries/window-partials';
import { listWindowStatsFromRaw, loadWindowFigures, type LeaderboardParams, type LeaderboardRow } from '@/server/window-stats';
import { planWindow } from '@/lib/stats/window-stats';
import { mulberry32 } from '@/lib/stats/random';
import { DAY_MS as DAY, HOUR_MS as HOUR, MINUTE_MS as MIN } from '@/lib/stats/time-units';

/** 20 minutes past a UTC midnight: a 24 h window spans the day before and this day's first hour */
const MIDNIGHT = Date.parse('2026-11-29T00:00:00Z');
const NOW = MIDNIGHT + 20 * MIN;
let t: TestDatabase;
let ids: number[] = [];
let workloadId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  const seeded = await seedAllActive(t.db, { 'prose-1k': 'prose' });
  workloadId = seeded.workloadIds['prose-1k']!;
  ids = seeded.maverickEndpointIds.slice(0, 3);
  const rand = mulberry32(23);
  let i = 0;
  // every ~11 minutes per endpoint over the 3 days before NOW
  for (const id of ids) {
    for (let at = NOW - 3 * DAY + id * 5_000; at <= NOW; at += 11 * MIN + 7_000) {
      await insertMeasurement(t.db, randomMeasurement({ rand, jobKey: `rf:${id}:${at}:${i}`, endpointId: id, workloadId, at, i }));
      i++;
    }
  }
}, 240_000);
afterAll(async () => t?.drop());

function params(asOf: number, windowHours: number): LeaderboardParams {
  return { modelSlug: 'llama-4-maverick', workloadSlug: 'prose-1k', asOf: new Date(asOf), windowHours, basis: 'reported', region: null };
}

/** Counts equal the raw-only reference exactly, the median within the sketch's 0.05 % (+ rounding). */
function expectSameAsRaw(got: LeaderboardRow[], raw: LeaderboardRow[], label: string): void {
  expect(got.length).toBe(raw.length);
  for (const r of raw) {
    const g = got.find((x) => x.endpoint.id === r.endpoint.id)!;
    expect(g.n, `${label} n`).toBe(r.n);
    expect(g.successes, `${label} successes`).toBe(r.successes);
    expect(g.samples, `${label} samples`).toBe(r.samples);
    expect(g.errorKinds, `${label} error kinds`).toEqual(r.errorKinds);
    expect(g.notRankable, `${label} not rankable`).toEqual(r.notRankable);
    expect(g.fidelity, `${label} fidelity`).toEqual(r.fidelity);
    expect(g.lastMeasuredAt, `${label} last`).toBe(r.lastMeasuredAt);
    if (r.outputTokensPerSecond)
      expect(Math.abs(g.outputTokensPerSecond!.p50 - r.outputTokensPerSecond.p50)).toBeLessThanOrEqual(r.outputTokensPerSecond.p50 * 0.001);
    else expect(g.outputTokensPerSecond).toBeNull();
  }
  expect(raw.some((r) => r.n > 20)).toBe(true);
}

async function check(asOf: number, windowHours: number, source: 'partials' | 'rollups'): Promise<void> {
  const p = params(asOf, windowHours);
  const got = await loadWindowFigures(t.db, p);
  expect(got.source, new Date(asOf).toISOString()).toBe(source);
  expectSameAsRaw(got.rows, await listWindowStatsFromRaw(t.db, p), `${new Date(asOf).toISOString()} ${windowHours} h`);
}

describe('the rollup frontier', () => {
  it('before the rollup job ever ran, every window (across the hour and the day boundary) is read from raw rows, whole', async () => {
    expect(await getPartialCoverage(t.db)).toBeNull();
    for (const asOf of [MIDNIGHT - 1, MIDNIGHT, MIDNIGHT + 1, NOW, MIDNIGHT - HOUR + 5 * MIN, MIDNIGHT - 2 * DAY + 1]) {
      for (const w of [24, 72]) await check(asOf, w, 'rollups');
    }
    // the plan itself: no bucket at all without a frontier
    const plan = planWindow(new Date(NOW), 72, -Infinity);
    expect(plan.dayBuckets.length + plan.hourBuckets.length + plan.blockBuckets.length).toBe(0);
    expect(plan.rawFrom).toEqual(plan.start);
  }, 120_000);

  for (const [label, frontier] of [
    ['on an hour boundary', MIDNIGHT - 5 * HOUR],
    ['a millisecond before one', MIDNIGHT - 5 * HOUR - 1],
    ['a millisecond after one', MIDNIGHT - 5 * HOUR + 1],
    ['mid-hour', MIDNIGHT - 5 * HOUR - 23 * MIN - 17_000],
  ] as const) {
    it(`a rollup job stopped ${label}, read hours later past midnight: rollups up to the frontier, raw after it`, async () => {
      await t.db.execute(sql`delete from measurement_rollups`);
      await t.db.execute(sql`delete from window_partials`);
      await t.db.execute(sql`delete from window_partial_coverage`);
      // what the job built before it stopped at `frontier` (hours with their partials, then days)
      await rebuildRollups(t.db, { granularity: 'hour', from: new Date(NOW - 4 * DAY), to: new Date(frontier), wallNow: new Date(frontier) });
      await rebuildRollups(t.db, { granularity: 'day', from: new Date(NOW - 4 * DAY), to: new Date(frontier) });
      expect((await getPartialCoverage(t.db))!.toMs).toBe(frontier);
      // the partials' edge is more than 2 h behind: the board falls back to rollups + raw
      for (const asOf of [NOW, MIDNIGHT, MIDNIGHT - 1, frontier + 2 * HOUR + 10 * MIN]) {
        for (const w of [24, 72]) await check(asOf, w, 'rollups');
      }
      // inside the 2-hour raw edge the partials answer, with the same figures
      await check(Math.floor(frontier / (10 * MIN)) * 10 * MIN + 2 * HOUR, 24, 'partials');
    }, 120_000);
  }
});
