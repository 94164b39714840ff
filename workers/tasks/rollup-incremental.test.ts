// The per-minute rollup job in steady state rebuilds only the buckets that received measurements
// since its last runs (decision 217), and what it leaves equals a full rebuild from raw: hourly
// rollups, daily rollups, complete window partials
// (the only ones a window reads; a larger bucket is built when it completes), and the window
// figures read from them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { randomMeasurement } from '@/db/test-support/random-measurement';
import { seedAllActive } from '@/db/test-support/seed-all-active';
import { insertMeasurement } from '@/db/queries/measurements';
import { rebuildRollups } from '@/db/queries/rollups';
import { getRollupProgress, listDirtyBuckets, PROGRESS_LAG_RUNS } from '@/db/queries/rollup-progress';
import { loadWindowFigures } from '@/server/window-stats';
import { mulberry32 } from '@/lib/stats/random';
import { runRollupJob } from './rollup-measurements';
import { MEASUREMENT_WRITE_LAG_MS } from '@/lib/probe/probe-deadlines';
import { DAY_MS as DAY, HOUR_MS as HOUR, MINUTE_MS as MIN } from '@/lib/stats/time-units';

const NOW = new Date('2026-11-29T12:34:56Z');
const FIRST = NOW.getTime() - 2 * DAY;
let t: TestDatabase;
let eps: number[] = [];
const wl: Record<string, number> = {};
let n = 0;
const rand = mulberry32(5);

async function add(endpointId: number, workload: string, at: number, id?: number): Promise<void> {
  const i = n++;
  const row = randomMeasurement({
    rand,
    jobKey: `ri:${i}`,
    endpointId,
    workloadId: wl[workload]!,
    at,
    i,
    flaggedShare: 0,
    errorKinds: ['timeout'],
    itl: false,
    fidelityEvery: 7,
  });
  await insertMeasurement(t.db, { ...(id === undefined ? {} : { id }), ...row });
}

/** Every rollup row and every complete partial's body (the ones windows read), sorted. */
async function dump(): Promise<string[]> {
  const rollups = (await t.db.execute(sql`
    select granularity, bucket_start, endpoint_id, workload_id, worker_region, count, successes, error_kinds, sketches, excluded, sketch_version
    from measurement_rollups`)) as unknown as object[];
  const partials = (await t.db.execute(sql`
    select span_minutes, workload_id, model_id, region_key, bucket_start, encode(body, 'base64') as body from window_partials
    where bucket_start + span_minutes * interval '1 minute' <= (select to_at from window_partial_coverage where id = 1)`)) as unknown as object[];
  return [...rollups, ...partials].map((r) => JSON.stringify(r)).sort();
}

beforeAll(async () => {
  t = await createTestDatabase();
  const seeded = await seedAllActive(t.db, { 'prose-1k': 'prose', 'code-1k': 'code' });
  Object.assign(wl, seeded.workloadIds);
  eps = seeded.maverickEndpointIds.slice(0, 3);
  for (const id of eps) {
    for (let at = FIRST + id * 7_000; at <= NOW.getTime(); at += 23 * MIN + 11_000) {
      await add(id, 'prose-1k', at);
      if (at % 3 === 0) await add(id, 'code-1k', at + 5_000);
    }
  }
  // A fresh database: the job catches up (full rebuilds) until it reaches NOW.
  for (let runs = 0; (await runRollupJob(t.db, NOW)).to.getTime() < NOW.getTime(); runs++) expect(runs).toBeLessThan(5);
  // Until PROGRESS_LAG_RUNS runs are on record a run scans every id (decision 319): steady state after.
  while (((await getRollupProgress(t.db)) ?? []).length < PROGRESS_LAG_RUNS) await runRollupJob(t.db, NOW);
}, 240_000);

afterAll(async () => {
  await t?.close();
});

describe('incremental rollup job (decision 217)', () => {
  it('lists the buckets of ids in (afterId, upToId] only: just under, at and just over both ends', async () => {
    const rows = (await t.db.execute(sql`
      select id::float8 as id, workload_id, (floor(extract(epoch from measured_at) / 600) * 600000)::float8 as s
      from measurements order by id desc limit 2`)) as unknown as Array<{ id: number; workload_id: number; s: number }>;
    const [last, prev] = [rows[0]!, rows[1]!];
    const range = { from: new Date(0), to: new Date(NOW.getTime() + DAY) };
    const of = (afterId: number, upToId: number) => listDirtyBuckets(t.db, { afterId, upToId, ...range });
    expect(await of(last.id, last.id)).toEqual([]);
    expect(await of(last.id - 1, last.id)).toEqual([{ workloadId: Number(last.workload_id), startMs: Number(last.s) }]);
    expect(await of(prev.id - 1, prev.id)).toEqual([{ workloadId: Number(prev.workload_id), startMs: Number(prev.s) }]);
    expect((await of(prev.id - 1, last.id)).length).toBe(Number(prev.s) === Number(last.s) && prev.workload_id === last.workload_id ? 1 : 2);
    // measured_at outside [from, to) is left out
    expect(await listDirtyBuckets(t.db, { afterId: last.id - 1, upToId: last.id, from: new Date(Number(last.s) + 600_000), to: range.to })).toEqual([]);
  });

  it('rebuilds only what new rows touched, and the result equals a full rebuild from raw', async () => {
    const at = NOW.getTime() + MIN;
    // The current 10 minutes, a late probe 95 minutes back (another hour), and nothing for code-1k.
    await add(eps[0]!, 'prose-1k', NOW.getTime() + 20_000);
    await add(eps[1]!, 'prose-1k', NOW.getTime() + 30_000);
    await add(eps[2]!, 'prose-1k', NOW.getTime() - 95 * MIN);
    const r = await runRollupJob(t.db, new Date(at));
    // Two hours of prose-1k (the late probe's and the current one), one day; at most 3 endpoints × 2 regions each.
    expect(r.hourBuckets).toBeGreaterThan(0);
    expect(r.hourBuckets).toBeLessThanOrEqual(2 * eps.length * 2);
    expect(r.dayBuckets).toBeLessThanOrEqual(eps.length * 2);
    const incremental = await dump();
    const p = { modelSlug: 'llama-4-maverick', workloadSlug: 'prose-1k', asOf: new Date(at), windowHours: 24, basis: 'reported' as const, region: null };
    const figures = await loadWindowFigures(t.db, p);
    expect(figures.source).toBe('partials');
    expect(figures.rows.reduce((m, x) => m + x.n, 0)).toBeGreaterThan(0);
    for (const g of ['hour', 'day'] as const) {
      await rebuildRollups(t.db, { granularity: g, from: new Date(FIRST - DAY), to: new Date(at + HOUR), wallNow: new Date(at) });
    }
    expect(await dump()).toEqual(incremental);
    expect(await loadWindowFigures(t.db, p)).toEqual(figures);
  });

  it(`a run without new rows for ${PROGRESS_LAG_RUNS} runs rebuilds nothing and keeps the coverage moving`, async () => {
    // Past the last test's full rebuild (its coverage ends at NOW + 1 min) by the write lag.
    let at = NOW.getTime() + MIN + MEASUREMENT_WRITE_LAG_MS;
    // The rows of the last test are rebuilt again while they lie within the lag (idempotent)…
    for (let i = 1; i < PROGRESS_LAG_RUNS; i++) expect((await runRollupJob(t.db, new Date((at += 10_000)))).hourBuckets).toBeGreaterThan(0);
    // …and no more after it.
    at += 10_000;
    const before = await dump();
    const r = await runRollupJob(t.db, new Date(at));
    expect(r.hourBuckets).toBe(0);
    expect(r.dayBuckets).toBe(0);
    expect(await dump()).toEqual(before);
    const cov = (await t.db.execute(sql`select to_at from window_partial_coverage where id = 1`)) as unknown as Array<{ to_at: string | Date }>;
    expect(new Date(cov[0]!.to_at).getTime()).toBe(at - MEASUREMENT_WRITE_LAG_MS);
  });

  it(`scans from the id seen ${PROGRESS_LAG_RUNS} runs back: a row committed late within that is folded in, one older is not`, async () => {
    let at = NOW.getTime() + 2 * MIN;
    const countOf = async () =>
      (
        (await t.db.execute(
          sql`select coalesce(sum(count), 0)::int as n from measurement_rollups where granularity = 'day' and workload_id = ${wl['code-1k']!} and endpoint_id = ${eps[1]!}`,
        )) as unknown as Array<{ n: number }>
      )[0]!.n;
    // A gap of unused ids below the next row: rows written into it later stand for inserts that committed late.
    const seq = sql`pg_get_serial_sequence('measurements', 'id')`;
    const gapTop = (
      (await t.db.execute(sql`select setval(${seq}, (select max(id) from measurements) + 100)::float8 as v`)) as unknown as Array<{ v: number }>
    )[0]!.v;
    await add(eps[0]!, 'code-1k', at + 10_000);
    await runRollupJob(t.db, new Date((at += MIN)));
    expect((await getRollupProgress(t.db))!.at(-1)).toBe(gapTop + 1);
    const base = await countOf();
    // Below the newest id already seen, above the oldest of the last runs: found.
    await add(eps[1]!, 'code-1k', at + 20_000, gapTop - 10);
    await runRollupJob(t.db, new Date((at += MIN)));
    expect(await countOf()).toBe(base + 1);
    // Once the runs that could have missed it are PROGRESS_LAG_RUNS back, a row below the oldest seen id is not (the stated limit).
    for (let i = 0; i < PROGRESS_LAG_RUNS; i++) await runRollupJob(t.db, new Date((at += MIN)));
    expect((await getRollupProgress(t.db))![0]).toBe(gapTop + 1);
    await add(eps[1]!, 'code-1k', at + 30_000, gapTop - 20);
    await runRollupJob(t.db, new Date((at += MIN)));
    expect(await countOf()).toBe(base + 1);
    // A full rebuild of that day folds it in.
    await rebuildRollups(t.db, { granularity: 'day', from: new Date(at - DAY), to: new Date(at + HOUR) });
    expect(await countOf()).toBe(base + 2);
  });
});
