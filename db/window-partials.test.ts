// Window figures from pre-merged partials (decision 210) equal the rollup path's bit for bit, at
// any instant (on 10-minute, hour and day boundaries, just before and after them, random seconds),
// for every basis and region filter; regions agree; late data is folded in by the next rebuild;
// a window the partials do not cover falls back to rollups.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-support/test-database';
import { randomMeasurement } from './test-support/random-measurement';
import { seedAllActive } from './test-support/seed-all-active';
import { insertMeasurement } from './queries/measurements';
import { rebuildRollups } from './queries/rollups';
import { extendCoverageToOrigin, getPartialCoverage, rebuildWindowPartials } from './queries/window-partials';
import { listWindowRegions } from './queries/operations';
import { listWindowStatsFromRollups, loadWindowFigures, type LeaderboardParams } from '@/server/window-stats';
import { planWindow } from '@/lib/stats/window-stats';
import { mulberry32 } from '@/lib/stats/random';
import { DAY_MS as DAY, HOUR_MS as HOUR, MINUTE_MS as MIN } from '@/lib/stats/time-units';

const NOW = new Date('2026-11-29T12:34:56Z');
const FIRST = NOW.getTime() - 9 * DAY;
let t: TestDatabase;
let ids: number[] = [];
let workloadId: number;

async function add(endpointId: number, at: number, i: number, rand: () => number): Promise<void> {
  await insertMeasurement(t.db, randomMeasurement({ rand, jobKey: `wp:${endpointId}:${at}:${i}`, endpointId, workloadId, at, i }));
}

beforeAll(async () => {
  t = await createTestDatabase();
  const seeded = await seedAllActive(t.db, { 'prose-1k': 'prose' });
  workloadId = seeded.workloadIds['prose-1k']!;
  ids = seeded.maverickEndpointIds.slice(0, 4);
  const rand = mulberry32(11);
  let i = 0;
  // Every ~37 minutes per endpoint over 9 days, plus probes exactly on boundaries (10 min, hour, day).
  for (const id of ids) for (let at = FIRST + id * 7_000; at <= NOW.getTime(); at += 37 * MIN + 13_000) await add(id, at, i++, rand);
  for (const b of [
    NOW.getTime() - 2 * DAY - (NOW.getTime() % DAY),
    NOW.getTime() - 3 * HOUR - (NOW.getTime() % HOUR),
    NOW.getTime() - (NOW.getTime() % (10 * MIN)),
  ]) {
    for (const d of [-1, 0, 1]) await add(ids[0]!, b + d, i++, rand);
  }
  for (const g of ['hour', 'day'] as const)
    await rebuildRollups(t.db, { granularity: g, from: new Date(FIRST - 6 * DAY), to: new Date(NOW.getTime() + HOUR), wallNow: NOW });
}, 240_000);
afterAll(async () => t?.drop());

function params(asOf: number, windowHours: number, basis: 'reported' | 'o200k', region: string | null): LeaderboardParams {
  return { modelSlug: 'llama-4-maverick', workloadSlug: 'prose-1k', asOf: new Date(asOf), windowHours, basis, region };
}

async function expectSame(p: LeaderboardParams): Promise<void> {
  const got = await loadWindowFigures(t.db, p);
  expect(got.source, p.asOf.toISOString()).toBe('partials');
  const want = await listWindowStatsFromRollups(t.db, p);
  expect(got.rows, `${p.asOf.toISOString()} ${p.windowHours}h ${p.basis} ${p.region}`).toEqual(want);
  expect(
    want.some((r) => r.n > 0 && r.cachedInputShare !== null && r.cachedInputShare.n > 0),
    'the cached share is compared on real values',
  ).toBe(want.some((r) => r.n > 0));
  const plan = planWindow(p.asOf, p.windowHours);
  const regions = await listWindowRegions(t.db, {
    endpointIds: want.map((r) => r.endpoint.id),
    workloadSlug: p.workloadSlug,
    from: plan.start,
    to: p.asOf,
    region: p.region,
  });
  expect(got.regions).toEqual(regions);
}

describe('window figures from partials', () => {
  it('equal the rollup path at boundary instants (just under, at, just over) and random seconds', async () => {
    const n = NOW.getTime();
    const instants = new Set<number>();
    for (const unit of [10 * MIN, HOUR, DAY]) {
      const b = n - 2 * DAY - ((n - 2 * DAY) % unit) + unit;
      for (const d of [-1, 0, 1, 999, 1000]) instants.add(b + d);
    }
    const rand = mulberry32(5);
    for (let k = 0; k < 12; k++) instants.add(n - Math.floor((rand() * 5 * DAY) / 1000) * 1000);
    instants.add(Math.floor(n / MIN) * MIN);
    let k = 0;
    for (const at of instants) {
      k++;
      await expectSame(params(at, [72, 24, 168][k % 3]!, k % 2 ? 'reported' : 'o200k', [null, 'eu-west', null, 'us-east'][k % 4]!));
    }
  }, 120_000);

  it('a window reaching before the coverage is answered from rollups, with the same figures', async () => {
    const p = params(NOW.getTime() - 1000, 24 * 30, 'reported', null);
    const got = await loadWindowFigures(t.db, p);
    expect(got.source).toBe('rollups');
    expect(got.rows.some((r) => r.n > 0)).toBe(true);
  });

  it('the coverage reaches back to the epoch only when nothing lies before it', async () => {
    const before = (await getPartialCoverage(t.db))!.fromMs;
    const old = FIRST - 20 * DAY;
    await add(ids[0]!, old, 777_777, mulberry32(9));
    expect(await extendCoverageToOrigin(t.db)).toBe(false);
    await t.db.execute(sql`delete from measurements where job_key like ${`wp:${ids[0]}:${old}:%`}`);
    expect(await extendCoverageToOrigin(t.db)).toBe(true);
    expect((await getPartialCoverage(t.db))!.fromMs).toBe(0);
    expect(before).toBeGreaterThan(0);
    // the 30-day window of the previous test now comes from partials, with the same figures
    await expectSame(params(NOW.getTime() - 1000, 24 * 30, 'o200k', null));
  });

  it('late data is folded in by the next rebuild of its range; an unchanged rebuild rewrites nothing', async () => {
    const at = NOW.getTime() - 5 * HOUR + 17_000;
    const p = params(NOW.getTime() - 1000, 72, 'reported', null);
    const before = await loadWindowFigures(t.db, p);
    await add(ids[1]!, at, 999_999, mulberry32(3));
    const stale = await loadWindowFigures(t.db, p);
    expect(stale.rows).toEqual(before.rows); // not yet rebuilt: the partials are the answer's inputs
    const v0 = (await getPartialCoverage(t.db))!.version;
    await rebuildWindowPartials(t.db, { from: new Date(at - HOUR), to: new Date(at + HOUR), wallNow: NOW });
    expect((await getPartialCoverage(t.db))!.version).toBe(v0 + 1);
    const after = await loadWindowFigures(t.db, p);
    expect(after.rows.find((r) => r.endpoint.id === ids[1])!.n).toBe(before.rows.find((r) => r.endpoint.id === ids[1])!.n + 1);
    const [{ n: written }] = (await t.db.execute(
      sql`select count(*)::int as n from window_partials where built_at > now() - interval '1 hour'`,
    )) as unknown as [{ n: number }];
    await new Promise((r) => setTimeout(r, 20));
    const mark = new Date();
    await rebuildWindowPartials(t.db, { from: new Date(at - HOUR), to: new Date(at + HOUR), wallNow: NOW });
    const [{ n: rewritten }] = (await t.db.execute(
      sql`select count(*)::int as n from window_partials where built_at >= ${mark.toISOString()}::timestamptz`,
    )) as unknown as [{ n: number }];
    expect(written).toBeGreaterThan(0);
    expect(rewritten).toBe(0);
  });

  it('never claims the future: coverage ends at the build instant, and later probes come from raw rows', async () => {
    // the rollups (the reference) catch up with the late probe of the previous test
    await rebuildRollups(t.db, { granularity: 'hour', from: new Date(NOW.getTime() - 6 * HOUR), to: new Date(NOW.getTime() + HOUR), wallNow: NOW });
    const cov = (await getPartialCoverage(t.db))!;
    expect(cov.toMs).toBeLessThanOrEqual(NOW.getTime());
    const inFuture = NOW.getTime() + 4 * MIN;
    await add(ids[2]!, inFuture, 888_888, mulberry32(4));
    const p = params(inFuture + 1000, 72, 'reported', null);
    const got = await loadWindowFigures(t.db, p);
    expect(got.source).toBe('partials');
    expect(got.rows).toEqual(await listWindowStatsFromRollups(t.db, p));
  });
});
