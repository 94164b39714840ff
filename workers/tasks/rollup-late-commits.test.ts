// A measurement becomes visible at its commit, which comes after its measured_at (the probe's
// start) by up to the probe job's expiry, and an insert's id is taken before its commit. Two
// ways the per-minute rollup job lost committed rows from every window read from partials, until
// some later row touched the same bucket (a per-region board of a stopped region listed no region
// at all; workers/two-regions.test.ts, CI of 2026-12-03):
// 1. The job claimed coverage up to its wall clock, so a probe started before a 10-minute
//    boundary and committed after a run past it was neither in that bucket's partial nor in the
//    raw edge after the boundary. Now the coverage stops MEASUREMENT_WRITE_LAG_MS before the run.
// 2. Its id lag (scan from the id seen PROGRESS_LAG_RUNS runs back) was shorter during a fresh
//    database's first runs: run 2 scanned from run 1's id, so a row with a smaller id committed
//    after run 1 was never rebuilt. Now the runs before the first are read as id 0.
// Every window here is compared with the raw-only reference (listWindowStatsFromRaw), by region.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { randomMeasurement } from '@/db/test-support/random-measurement';
import { seedAllActive } from '@/db/test-support/seed-all-active';
import { insertMeasurement } from '@/db/queries/measurements';
import { getPartialCoverage } from '@/db/queries/window-partials';
import { getRollupProgress, PROGRESS_LAG_RUNS } from '@/db/queries/rollup-progress';
import { listWindowStatsFromRaw, loadWindowFigures, type LeaderboardParams } from '@/server/window-stats';
import { MEASUREMENT_WRITE_LAG_MS } from '@/lib/probe/probe-deadlines';
import { mulberry32 } from '@/lib/stats/random';
import { MINUTE_MS as MIN } from '@/lib/stats/time-units';
import { runRollupJob } from './rollup-measurements';

/** A 10-minute boundary: probes start just before it, the job runs just after it. */
const BOUNDARY = Date.parse('2026-11-30T15:00:00Z');
let t: TestDatabase;
let eps: number[] = [];
let workloadId = 0;
let n = 0;
const rand = mulberry32(41);

async function add(p: { endpointId: number; at: number; region: string; id?: number }): Promise<void> {
  const i = n++;
  const row = randomMeasurement({ rand, jobKey: `lc:${i}`, endpointId: p.endpointId, workloadId, at: p.at, i, flaggedShare: 0 });
  await insertMeasurement(t.db, { ...(p.id === undefined ? {} : { id: p.id }), ...row, workerRegion: p.region });
}

/** Leaves `size` unused ids below the next row (an insert that took its id and has not committed) and returns the gap's top. */
async function leaveIdGap(size: number): Promise<number> {
  const seq = sql`pg_get_serial_sequence('measurements', 'id')`;
  const [r] = (await t.db.execute(sql`select setval(${seq}, coalesce((select max(id) from measurements), 0) + ${size})::float8 as v`)) as unknown as [
    { v: number },
  ];
  return r!.v;
}

function params(asOf: number, region: string | null): LeaderboardParams {
  return { modelSlug: 'llama-4-maverick', workloadSlug: 'prose-1k', asOf: new Date(asOf), windowHours: 24, basis: 'reported', region };
}

/** Each region's board and the merged one: the counts and the listed regions equal the raw-only reference's. */
async function expectWhole(asOf: number, label: string): Promise<void> {
  for (const region of [null, 'eu', 'us']) {
    const got = await loadWindowFigures(t.db, params(asOf, region));
    const raw = await listWindowStatsFromRaw(t.db, params(asOf, region));
    expect(got.source, label).toBe('partials');
    expect(
      got.rows.map((r) => [r.endpoint.id, r.n, r.successes]),
      `${label} ${region ?? 'merged'}`,
    ).toEqual(raw.map((r) => [r.endpoint.id, r.n, r.successes]));
    const rawRegions = (await t.db.execute(sql`
      select distinct worker_region as r from measurements
      where workload_id = ${workloadId} and endpoint_id = any(${`{${eps.join(',')}}`}::int[])
        and measured_at <= ${new Date(asOf).toISOString()}::timestamptz ${region ? sql`and worker_region = ${region}` : sql``}
      order by 1`)) as unknown as Array<{ r: string }>;
    expect(got.regions, `${label} ${region ?? 'merged'} regions`).toEqual(rawRegions.map((x) => x.r));
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
  const seeded = await seedAllActive(t.db, { 'prose-1k': 'prose' });
  workloadId = seeded.workloadIds['prose-1k']!;
  eps = seeded.maverickEndpointIds.slice(0, 2);
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

describe('rows committed after a rollup run that began before them', () => {
  it(`fresh database: a row whose id was taken before run 1 and committed after it is in every window, in each of the first ${PROGRESS_LAG_RUNS} runs and after`, async () => {
    // us measures in the hour before; eu's only probe took its id before run 1 and commits after it.
    for (let k = 0; k < 6; k++) await add({ endpointId: eps[k % 2]!, at: BOUNDARY - 50 * MIN + k * 5 * MIN, region: 'us' });
    const gapTop = await leaveIdGap(10);
    await add({ endpointId: eps[1]!, at: BOUNDARY - 45 * MIN, region: 'us' });
    let now = BOUNDARY - 20 * MIN;
    await runRollupJob(t.db, new Date(now));
    expect(await getRollupProgress(t.db)).toEqual([gapTop + 1]);
    await add({ endpointId: eps[0]!, at: now - 30_000, region: 'eu', id: gapTop - 3 });
    await expectWhole(now + 1000, 'before run 2 (the raw edge)');
    for (let run = 2; run <= PROGRESS_LAG_RUNS + 4; run++) {
      await runRollupJob(t.db, new Date((now += MIN)));
      await expectWhole(now + 1000, `after run ${run}`);
    }
    // A later probe far from the boundary neither hides nor doubles anything.
    await add({ endpointId: eps[1]!, at: now - 30_000, region: 'eu' });
    await runRollupJob(t.db, new Date((now += MIN)));
    await expectWhole(now + 1000, 'after a new eu row');
  }, 120_000);

  it('a probe started before a 10-minute boundary and committed after a run past it counts at once; the coverage stops the write lag before the run', async () => {
    const run = BOUNDARY + 30_000;
    // Catch the job up to just before the probes of this test start.
    await runRollupJob(t.db, new Date(BOUNDARY - 2 * MIN));
    // Probes that started just before the boundary, at the lag's edge and just inside it; none committed yet.
    const starts = [BOUNDARY - 20_000, run - MEASUREMENT_WRITE_LAG_MS + 1, run - MEASUREMENT_WRITE_LAG_MS];
    const gapTop = await leaveIdGap(starts.length + 5);
    await add({ endpointId: eps[1]!, at: BOUNDARY - 90_000, region: 'us' });
    await runRollupJob(t.db, new Date(run));
    const coverage = (await getPartialCoverage(t.db))!;
    expect(coverage.toMs).toBe(run - MEASUREMENT_WRITE_LAG_MS);
    // They commit after the run (ids below the newest it saw), in eu: the only eu rows of that hour.
    for (const [k, at] of starts.entries()) await add({ endpointId: eps[k % 2]!, at, region: 'eu', id: gapTop - 1 - k });
    // Not yet rebuilt, read before the next run: the two started after the claimed edge count now…
    const asOf = run + 5_000;
    const got = await loadWindowFigures(t.db, params(asOf, 'eu'));
    const raw = await listWindowStatsFromRaw(t.db, params(asOf, 'eu'));
    const total = (rows: Array<{ n: number }>) => rows.reduce((m, r) => m + r.n, 0);
    // …the one started exactly at the claimed edge too (the raw edge is [edge, asOf], edge ≤ the claim).
    expect(total(got.rows)).toBe(total(raw));
    expect(total(raw)).toBeGreaterThanOrEqual(starts.length);
    // The next run folds all in: whole by every region.
    await runRollupJob(t.db, new Date(run + MIN));
    await expectWhole(run + MIN + 1000, 'after the next run');
  }, 120_000);

  it('a probe committed more than the write lag after its start is the stated limit: missed until the next run rebuilds its bucket', async () => {
    const run = BOUNDARY + 20 * MIN + 30_000;
    await runRollupJob(t.db, new Date(run - MIN));
    const gapTop = await leaveIdGap(5);
    await add({ endpointId: eps[0]!, at: run - 2 * MIN, region: 'us' });
    await runRollupJob(t.db, new Date(run));
    const claimed = (await getPartialCoverage(t.db))!.toMs;
    expect(claimed).toBe(run - MEASUREMENT_WRITE_LAG_MS);
    // Started 1 ms before the claim and a 10-minute boundary lies between it and the claim: in a partial already built without it.
    const edge = Math.floor(claimed / (10 * MIN)) * 10 * MIN;
    const at = Math.min(edge, claimed) - 1;
    await add({ endpointId: eps[1]!, at, region: 'eu', id: gapTop - 2 });
    const asOf = run + 1000;
    const before = (await loadWindowFigures(t.db, params(asOf, 'eu'))).rows.reduce((m, r) => m + r.n, 0);
    const raw = (await listWindowStatsFromRaw(t.db, params(asOf, 'eu'))).reduce((m, r) => m + r.n, 0);
    expect(before).toBe(raw - 1);
    await runRollupJob(t.db, new Date(run + MIN));
    await expectWhole(run + MIN + 1000, 'after the next run');
  }, 120_000);

  it("a row measured ahead of the jobs process's clock (a worker whose clock runs 5 min fast) is counted once its time comes, however many runs later", async () => {
    let now = BOUNDARY + 30 * MIN;
    await runRollupJob(t.db, new Date(now));
    const ahead = now + 5 * MIN;
    await add({ endpointId: eps[0]!, at: ahead, region: 'eu' });
    // Runs while it is still ahead of each run's clock, until its id is older than the id lag…
    for (let run = 0; run < PROGRESS_LAG_RUNS + 3; run++) await runRollupJob(t.db, new Date((now += 40_000)));
    expect(now + MIN).toBeLessThanOrEqual(ahead);
    // …then on until its bucket is claimed and read from partials.
    while (now - MEASUREMENT_WRITE_LAG_MS < Math.ceil(ahead / (10 * MIN)) * 10 * MIN) await runRollupJob(t.db, new Date((now += MIN)));
    await expectWhole(now + 1000, 'its bucket read from partials');
  }, 120_000);
});
