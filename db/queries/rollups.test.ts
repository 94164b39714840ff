import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLeaderboard } from '@/lib/ranking/build-leaderboard';
import { mulberry32, normalFrom } from '@/lib/stats/random';
import { sketchIndex, SKETCH_LN_GAMMA } from '@/lib/stats/sketch';
import { runRetentionJob } from '@/workers/tasks/apply-retention';
import { runRollupJob } from '@/workers/tasks/rollup-measurements';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';
import { seedCatalog } from '../seed';
import { endpoints, measurementRollups, measurements, workloads } from '../schema';
import { listEndpointHistory, listModelHistory } from './history';
import { planWindow } from '@/lib/stats/window-stats';
import {
  listWindowStats as listLeaderboardRows,
  listWindowStatsFromRaw as listLeaderboardRowsFromRaw,
  type LeaderboardParams,
  type LeaderboardRow,
} from '@/server/window-stats';
import { rebuildRollups } from './rollups';

const WL = [
  { slug: 'prose-1k', category: 'prose' as const, inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true },
  { slug: 'code-1k', category: 'code' as const, inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true },
];
// 12:37:20 on a Sunday: windows have a partial tail hour and cross day boundaries.
const NOW = new Date('2026-11-29T12:37:20Z');
const DAYS = 6;

let t: TestDatabase;
let epIds: number[] = [];
let wlIds: number[] = [];

function expectWithinPromise(got: number | null | undefined, want: number | null | undefined, what: string) {
  if (want === null || want === undefined) {
    expect(got ?? null, what).toBeNull();
    return;
  }
  expect(got, what).toBeTypeOf('number');
  // the published promise: within 0.1 % of the exact type-7 order statistic (the sketch gives 0.05 %)
  expect(Math.abs(got! - want), `${what}: ${got} vs ${want}`).toBeLessThanOrEqual(0.001 * Math.abs(want) * (1 + 1e-9));
}

/** Rows must agree exactly on counts and within the sketch accuracy on every percentile. */
function expectRowsAgree(rollup: LeaderboardRow[], raw: LeaderboardRow[], label: string) {
  expect(rollup.map((r) => r.endpoint.id).sort()).toEqual(raw.map((r) => r.endpoint.id).sort());
  for (const r of raw) {
    const g = rollup.find((x) => x.endpoint.id === r.endpoint.id)!;
    const what = `${label} endpoint ${r.endpoint.slug}`;
    expect(g.n, `${what} n`).toBe(r.n);
    expect(g.successes, `${what} successes`).toBe(r.successes);
    expect(g.samples, `${what} samples`).toBe(r.samples);
    expect(g.errorKinds, `${what} errorKinds`).toEqual(r.errorKinds);
    expect(g.lastMeasuredAt, `${what} lastMeasuredAt`).toBe(r.lastMeasuredAt);
    for (const m of ['outputTokensPerSecond', 'ttftMs', 'ttfatMs', 'e2eMs'] as const) {
      for (const q of ['p5', 'p25', 'p50', 'p75', 'p95'] as const) expectWithinPromise(g[m]?.[q], r[m]?.[q], `${what} ${m}.${q}`);
    }
  }
  // Ranking, bands and ties come out the same from either path.
  const a = buildLeaderboard(rollup).map((e) => [e.endpoint.id, e.rank, e.band, e.tiedWith]);
  const b = buildLeaderboard(raw).map((e) => [e.endpoint.id, e.rank, e.band, e.tiedWith]);
  expect(a, `${label} ranking`).toEqual(b);
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedCatalog(t.db, { workloads: WL, lookupEnv: () => 'x', referencePort: 3999 });
  const eps = await t.db.select({ id: endpoints.id, slug: endpoints.slug }).from(endpoints);
  epIds = ['groq-llama-4-maverick', 'sambanova-llama-4-maverick', 'fireworks-llama-4-maverick', 'together-llama-4-maverick'].map(
    (s) => eps.find((e) => e.slug === s)!.id,
  );
  wlIds = (await t.db.select({ id: workloads.id }).from(workloads).orderBy(workloads.id)).map((w) => w.id);
  // Seeded synthetic probes: every 20 min per endpoint × workload × region over DAYS days up to
  // NOW + 10 min (so the tail hour has data before and after asOf). Groq and Fireworks are close
  // (tied), SambaNova clearly fastest; 4 % failures of three kinds; 2 % invalid timing; ttfat
  // missing on 10 %. Fireworks changes speed by +40 % three days before NOW (a change point).
  const rand = mulberry32(42);
  const gauss = normalFrom(rand);
  const base = [300, 800, 310, 150];
  const rows: Array<typeof measurements.$inferInsert> = [];
  let k = 0;
  for (let ts = NOW.getTime() - DAYS * 86400_000; ts <= NOW.getTime() + 10 * 60_000; ts += 20 * 60_000) {
    epIds.forEach((endpointId, ei) => {
      wlIds.forEach((workloadId) => {
        for (const region of ['us-east', 'eu-west']) {
          const at = new Date(ts + Math.floor(rand() * 19 * 60_000) + 1234);
          const u = rand();
          const failed = u < 0.04;
          const kind = u < 0.02 ? 'timeout' : u < 0.03 ? 'rate_limited' : 'http_error';
          const shift = ei === 2 && ts > NOW.getTime() - 3 * 86400_000 ? 1.4 : 1;
          const speed = base[ei]! * shift * Math.exp(0.08 * gauss());
          const ttft = 150 * Math.exp(0.3 * gauss());
          rows.push({
            jobKey: `syn:${k++}`,
            endpointId,
            workloadId,
            measuredAt: at,
            workerRegion: region,
            workerVersion: 'test',
            outcome: failed ? 'error' : 'success',
            errorKind: failed ? kind : null,
            rankable: !failed,
            notRankableReasons: failed ? ['failed'] : [],
            ttftMs: failed ? null : ttft,
            ttfatMs: failed || rand() < 0.1 ? null : ttft + 20,
            e2eMs: failed ? null : ttft + (256 / speed) * 1000,
            outputTokensPerSecond: failed ? null : speed,
            outputTokensPerSecondO200k: failed ? null : speed * 0.93,
            contentChunks: failed ? 0 : 256,
            valid: rand() >= 0.02,
          });
        }
      });
    });
  }
  for (let i = 0; i < rows.length; i += 1000) await t.db.insert(measurements).values(rows.slice(i, i + 1000));
}, 120_000);
afterAll(async () => t?.drop());

describe('rollups', () => {
  it('bucket function agrees between Postgres and TypeScript', async () => {
    const g = normalFrom(mulberry32(5));
    const xs = Array.from({ length: 2000 }, () => Math.exp(5 + 2 * g()));
    const res = (await t.db.execute(
      sql`select ceil(ln(x) / ${sql.raw(String(SKETCH_LN_GAMMA))}::float8)::bigint as i from unnest(${`{${xs.join(',')}}`}::float8[]) with ordinality u(x, o) order by o`,
    )) as unknown as Array<{ i: string }>;
    const mismatches = res.filter((r, j) => Number(r.i) !== sketchIndex(xs[j]!)).length;
    expect(mismatches).toBe(0);
  });

  it('the per-minute job catches up from an empty table and then equals a full rebuild', async () => {
    // A fresh database: the job starts at the oldest measurement and processes 48 h per run.
    let runs = 0;
    for (;;) {
      const r = await runRollupJob(t.db, NOW);
      runs++;
      if (r.to.getTime() >= NOW.getTime()) break;
      expect(runs).toBeLessThan(10);
    }
    expect(runs).toBeGreaterThan(2);
    // An idempotent second pass changes nothing.
    const dump = async () =>
      (
        await t.db
          .select({
            g: measurementRollups.granularity,
            b: measurementRollups.bucketStart,
            e: measurementRollups.endpointId,
            w: measurementRollups.workloadId,
            r: measurementRollups.workerRegion,
            c: measurementRollups.count,
            s: measurementRollups.successes,
            k: measurementRollups.errorKinds,
            sk: measurementRollups.sketches,
          })
          .from(measurementRollups)
      )
        .map((x) => JSON.stringify(x))
        .sort();
    const incremental = await dump();
    await rebuildRollups(t.db, { granularity: 'hour', from: new Date(NOW.getTime() - 10 * 86400_000), to: new Date(NOW.getTime() + 86400_000) });
    await rebuildRollups(t.db, { granularity: 'day', from: new Date(NOW.getTime() - 10 * 86400_000), to: new Date(NOW.getTime() + 86400_000) });
    expect(await dump()).toEqual(incremental);
    expect(incremental.length).toBeGreaterThan(DAYS * 24 * 4 * 2 * 2);
  });

  it('splits a window into daily, 6-hour-block, hourly and raw-tail parts covering [floorHour(asOf) − W, asOf]', () => {
    const plan = planWindow(NOW, 72);
    expect(plan.start.toISOString()).toBe('2026-11-26T12:00:00.000Z');
    expect(plan.rawFrom.toISOString()).toBe('2026-11-29T12:00:00.000Z');
    expect(plan.dayBuckets.map((d) => d.toISOString().slice(0, 10))).toEqual(['2026-11-27', '2026-11-28']);
    expect(plan.hourBuckets.length).toBe(0);
    expect(plan.blockBuckets.map((d) => d.toISOString().slice(5, 13))).toEqual(['11-26T12', '11-26T18', '11-29T00', '11-29T06']);
    const odd = planWindow(new Date('2026-11-29T15:10:00Z'), 30); // 09:00 on the 28th … 15:00 on the 29th
    expect(odd.hourBuckets.map((d) => d.toISOString().slice(5, 13))).toEqual(['11-28T09', '11-28T10', '11-28T11', '11-29T12', '11-29T13', '11-29T14']);
    expect(odd.blockBuckets.map((d) => d.toISOString().slice(5, 13))).toEqual(['11-28T12', '11-28T18', '11-29T00', '11-29T06']);
    expect(odd.dayBuckets).toEqual([]);
    const short = planWindow(NOW, 5);
    expect(short.dayBuckets).toEqual([]);
    expect(short.hourBuckets.length).toBe(5);
  });

  const cases: Array<Partial<LeaderboardParams> & { label: string }> = [
    { label: '72h live', windowHours: 72 },
    { label: '24h o200k', windowHours: 24, basis: 'o200k' },
    { label: '5h code-1k', windowHours: 5, workloadSlug: 'code-1k' },
    { label: '7d region eu-west', windowHours: 168, region: 'eu-west' },
    { label: '72h at an earlier instant', windowHours: 72, asOf: new Date('2026-11-27T03:05:00Z') },
    { label: '30d (longer than the data)', windowHours: 720 },
    { label: 'on the hour', windowHours: 48, asOf: new Date('2026-11-28T09:00:00Z') },
  ];
  for (const c of cases) {
    it(`leaderboard from rollups equals raw answers: ${c.label}`, async () => {
      const p: LeaderboardParams = {
        modelSlug: 'llama-4-maverick',
        workloadSlug: 'prose-1k',
        asOf: NOW,
        windowHours: 72,
        basis: 'reported',
        region: null,
        ...c,
      };
      const fromRollups = await listLeaderboardRows(t.db, p);
      const fromRaw = await listLeaderboardRowsFromRaw(t.db, p);
      expect(fromRaw.filter((r) => r.n > 0).length).toBe(4);
      expectRowsAgree(fromRollups, fromRaw, c.label);
      // Served again from the bucket cache: identical.
      expect(await listLeaderboardRows(t.db, p)).toEqual(fromRollups);
    });
  }

  it('endpoint history takes its figures from the window engine: a day equals the leaderboard window of that day', async () => {
    const from = new Date('2026-11-25T00:00:00Z');
    const merged = await listEndpointHistory(t.db, { endpointId: epIds[0]!, workloadSlug: 'prose-1k', granularity: 'day', from, to: NOW, region: null });
    const east = await listEndpointHistory(t.db, { endpointId: epIds[0]!, workloadSlug: 'prose-1k', granularity: 'day', from, to: NOW, region: 'us-east' });
    expect(merged.every((p) => p.percentileSource === 'sketch')).toBe(true);
    expect(east.length).toBeGreaterThan(0);
    const day = merged.find((p) => p.bucketStart.startsWith('2026-11-27'))!;
    const dayWindow: LeaderboardParams = {
      modelSlug: 'llama-4-maverick',
      workloadSlug: 'prose-1k',
      asOf: new Date('2026-11-27T23:59:59.999Z'),
      windowHours: 23,
      basis: 'reported',
      region: null,
    };
    const raw = await listLeaderboardRowsFromRaw(t.db, dayWindow);
    const groq = raw.find((r) => r.endpoint.id === epIds[0])!;
    expect(day.n).toBe(groq.n);
    expectWithinPromise(day.outputTokensPerSecond?.p50, groq.outputTokensPerSecond?.p50, 'daily p50');
    // the same measurements through the leaderboard path (23 hourly parts + raw tail): the identical figures
    const board = (await listLeaderboardRows(t.db, dayWindow)).find((r) => r.endpoint.id === epIds[0])!;
    expect(board.outputTokensPerSecond).toEqual(day.outputTokensPerSecond);
    expect(board.ttftMs).toEqual(day.ttftMs);
    const eastBoard = (await listLeaderboardRows(t.db, { ...dayWindow, region: 'us-east' })).find((r) => r.endpoint.id === epIds[0])!;
    expect(east.find((p) => p.bucketStart.startsWith('2026-11-27'))!.outputTokensPerSecond).toEqual(eastBoard.outputTokensPerSecond);
  });

  it('model history gives daily median, P25–P75 and the +40 % change point', async () => {
    const series = await listModelHistory(t.db, {
      modelSlug: 'llama-4-maverick',
      workloadSlug: 'prose-1k',
      from: new Date(NOW.getTime() - 30 * 86400_000),
      to: NOW,
      region: null,
      basis: 'reported',
    });
    const fireworks = series.find((s) => s.endpoint.id === epIds[2])!;
    expect(fireworks.days.length).toBe(DAYS + 1);
    expect(fireworks.days.every((d) => d.p25! <= d.median! && d.median! <= d.p75!)).toBe(true);
    expect(fireworks.changePoints.length).toBe(1);
    expect(fireworks.changePoints[0]!.label).toMatch(/^\+(3[5-9]|4[0-5])% on 2026-11-2[67]$/);
    expect(series.find((s) => s.endpoint.id === epIds[1])!.changePoints).toEqual([]);
  });

  it('the rollup job upgrades rollups written with an older sketch version, newest day first, back to the rebuilt rows', async () => {
    const snapshot = async () =>
      (await t.db.execute(
        sql`select granularity, bucket_start, endpoint_id, workload_id, worker_region, sketches, sketch_version, excluded from measurement_rollups order by 1, 2, 3, 4, 5`,
      )) as unknown as unknown[];
    const before = await snapshot();
    // two days marked as written by version 1 (as after the α change): the job must rebuild them
    await t.db.execute(
      sql`update measurement_rollups set sketch_version = 1, sketches = jsonb_set(sketches, '{_,v}', '1') where bucket_start >= '2026-11-26' and bucket_start < '2026-11-28'`,
    );
    const r = await runRollupJob(t.db, NOW, { maxStaleDaysPerRun: 1 });
    expect(r.upgradedDays).toBe(1);
    const stale = (await t.db.execute(
      sql`select min(bucket_start) as a, max(bucket_start) as b from measurement_rollups where sketch_version < 2`,
    )) as unknown as Array<{ a: string | Date; b: string | Date }>;
    expect(new Date(stale[0]!.b).toISOString().slice(0, 10)).toBe('2026-11-26'); // the newer day went first
    await runRollupJob(t.db, NOW);
    expect(await snapshot()).toEqual(before);
  });

  it('retention (off by default) deletes old raw days only after rolling them up; answers stay the same', async () => {
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(measurements);
    expect(await runRetentionJob(t.db, NOW, null)).toEqual({ days: [], deleted: 0, partitions: [] });
    await expect(runRetentionJob(t.db, NOW, 3)).rejects.toThrow(RangeError);
    const p: LeaderboardParams = {
      modelSlug: 'llama-4-maverick',
      workloadSlug: 'prose-1k',
      asOf: new Date('2026-11-24T18:00:00Z'),
      windowHours: 24,
      basis: 'reported',
      region: null,
    };
    const old = await listLeaderboardRows(t.db, p);
    const r = await runRetentionJob(t.db, new Date(NOW.getTime() + 7 * 86400_000 - 86400_000 * 2), 7);
    expect(r.days.length).toBeGreaterThan(0);
    expect(r.deleted).toBeGreaterThan(0);
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(measurements);
    expect(after[0]!.n).toBe(before[0]!.n - r.deleted);
    expect(await listLeaderboardRows(t.db, p)).toEqual(old);
    const left = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(measurements)
      .where(eq(measurements.workloadId, wlIds[0]!));
    expect(left[0]!.n).toBeGreaterThan(0);
  });
});
