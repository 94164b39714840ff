/**
 * One number for the workload families (issue 25; decisions 260, 261, 267, 268, 269): for seeded
 * measurements of the prompt-cache pair, the structured workloads, the agent turns and the
 * cache-lifetime series, the figures of /api/v1/endpoints/{id}/families (JSON and CSV), the
 * leaderboard's promptCache columns (JSON and CSV) and the endpoint page's composition are the
 * figures of the endpoint's own leaderboard entries of those workloads; the lifetime is the longest
 * gap still hit. Route handlers in-process against a real Postgres.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endpoints, workloads } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { anonymous, params, req, setupApiTest } from '@/app/api/test-support/api-test';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const HOUR = 3600_000;
const NOW = Date.now();
const MODEL = 'llama-4-maverick';
let t: TestDatabase;
let groq = 0;

/** per workload: ttft (ms), speed (tokens/s), cached and input tokens (null: not reported) of each probe */
type Probe = { ttft: number; tps: number; cached: number | null; input?: number | null };
const PLAN: Record<string, Probe[]> = {};
const series = (n: number, f: (i: number) => Probe) => Array.from({ length: n }, (_, i) => f(i));
PLAN['prose-1k'] = series(9, (i) => ({ ttft: 300 + i, tps: 400 + 3 * i, cached: null }));
PLAN['tool-call-1k'] = series(9, (i) => ({ ttft: 320 + i, tps: 300 + 2 * i, cached: null }));
PLAN['structured-json-1k'] = series(9, (i) => ({ ttft: 900 + i, tps: 350 + i, cached: null }));
PLAN['cache-cold-2k'] = series(6, (i) => ({ ttft: 1200 + 10 * i, tps: 400, cached: 0 }));
// 5 of 6 warm requests hit; cached share of the prompt 1792 ÷ 2048 = 0.875, the miss 0, one prompt size unreported (no share)
PLAN['cache-warm-2k'] = series(6, (i) => ({ ttft: i === 5 ? 1200 : 400 + 5 * i, tps: 400, cached: i === 5 ? 0 : 1792, input: i === 4 ? null : 2048 }));
// cached share per turn (decision 291): turn 1 none cached (0, the zero bucket), turn 2 half the prompt
// (one report of 0 input tokens: no share), turn 3 0.6 (one cached count unknown: no share)
PLAN['agent-turn-1'] = series(5, (i) => ({ ttft: 1100 + i, tps: 250 + i, cached: 0, input: 1300 }));
PLAN['agent-turn-2'] = series(5, (i) => ({ ttft: 350 + i, tps: 250 + i, cached: i === 4 ? 0 : 1024, input: i === 4 ? 0 : 2048 }));
PLAN['agent-turn-3'] = series(5, (i) => ({ ttft: 360 + i, tps: 249 + i, cached: i === 0 ? null : 1536, input: 2560 }));
/** the true cached share per turn and its n */
const TURN_SHARES = [
  { share: 0, n: 5 },
  { share: 0.5, n: 4 },
  { share: 0.6, n: 4 },
];
PLAN['cache-lifetime-seed'] = series(3, () => ({ ttft: 800, tps: 300, cached: 0 }));
PLAN['cache-lifetime-2m'] = series(3, () => ({ ttft: 200, tps: 300, cached: 1024 }));
// 2 of 3 still hit after 5 minutes, none after 15
PLAN['cache-lifetime-5m'] = series(3, (i) => ({ ttft: i === 0 ? 800 : 200, tps: 300, cached: i === 0 ? 0 : 1024 }));
PLAN['cache-lifetime-15m'] = series(3, () => ({ ttft: 800, tps: 300, cached: 0 }));

beforeAll(async () => {
  t = await setupApiTest();
  const { seedCatalog } = await import('@/db/seed');
  const { SEED_WORKLOADS } = await import('@/lib/catalog/seed-workloads');
  const { insertMeasurement } = await import('@/db/queries/measurements');
  const { rebuildRollups } = await import('@/db/queries/rollups');
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: (n) => (n === 'GROQ_API_KEY' ? 'x' : null), referencePort: 3999 });
  groq = (await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.slug, 'groq-llama-4-maverick')))[0]!.id;
  let k = 0;
  for (const [slug, probes] of Object.entries(PLAN)) {
    const workloadId = (await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, slug)))[0]!.id;
    for (const p of probes) {
      const at = NOW - 3 * HOUR - ++k * 60_000;
      await insertMeasurement(t.db, {
        jobKey: `families:${slug}:${at}`,
        endpointId: groq,
        workloadId,
        measuredAt: new Date(at),
        workerRegion: 'us-east',
        workerVersion: 'test',
        outcome: 'success',
        ttftMs: p.ttft,
        e2eMs: p.ttft + 1000,
        outputTokensPerSecond: p.tps,
        outputTokensPerSecondO200k: p.tps,
        contentChunks: 100,
        cachedInputTokens: p.cached,
        inputTokensReported: p.input ?? null,
        rankable: true,
        notRankableReasons: [],
      });
    }
  }
  for (const granularity of ['hour', 'day'] as const)
    await rebuildRollups(t.db, { granularity, from: new Date(NOW - 2 * 86400_000), to: new Date(NOW + HOUR) });
}, 180_000);
afterAll(async () => t?.drop());

async function get(path: string, handler: (r: Request, ctx: never) => Promise<Response>, ctx?: unknown): Promise<Response> {
  const res = await handler(req(anonymous, 'GET', path), ctx as never);
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return res;
}

describe('workload families: one number on every surface', () => {
  it('families JSON and CSV, the board columns and the page composition carry the leaderboard entries’ figures', async () => {
    const fam = await import('@/app/api/v1/endpoints/[id]/families/route');
    const famCsv = await import('@/app/api/v1/endpoints/[id]/families.csv/route');
    const lb = await import('@/app/api/v1/leaderboard/route');
    const lbCsv = await import('@/app/api/v1/leaderboard.csv/route');
    const { getLeaderboardAnswer } = await import('@/server/leaderboard');
    const { getEndpointFamilyFigures } = await import('@/server/workload-families');
    const { leaderboardQuerySchema } = await import('@/lib/api/schemas');
    const { familiesResponseSchema } = await import('@/lib/api/family-schemas');
    const { getDb } = await import('@/server/shared');
    const db = getDb();
    const entry = async (workload: string) =>
      (await getLeaderboardAnswer(db, leaderboardQuerySchema.parse({ model: MODEL, workload }))).entries.find((e) => e.endpoint.id === groq)!;

    const json = familiesResponseSchema.parse(await (await get(`/api/v1/endpoints/${groq}/families`, fam.GET, params({ id: String(groq) }))).json());
    const csv = parseCsv(await (await get(`/api/v1/endpoints/${groq}/families.csv`, famCsv.GET, params({ id: String(groq) }))).text(), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(csv.length).toBe(json.items.length);
    json.items.forEach((item, i) => {
      expect(csv[i]!.figure).toBe(item.figure);
      expect(csv[i]!.value === '' ? null : Number(csv[i]!.value), `${item.figure} ${item.workload}`).toBe(item.value);
    });
    const page = await getEndpointFamilyFigures(db, { id: groq, modelSlug: MODEL });
    expect(page.items).toEqual(json.items);
    const find = (figure: string, workload: string | null) => json.items.find((x) => x.figure === figure && x.workload === workload);

    // prompt cache
    const cold = await entry('cache-cold-2k');
    const warm = await entry('cache-warm-2k');
    expect(find('ttft_ms', 'cache-cold-2k')!.value).toBe(cold.ttftMs!.p50);
    expect(find('ttft_ms', 'cache-warm-2k')!.value).toBe(warm.ttftMs!.p50);
    expect(find('cache_hit_share', 'cache-warm-2k')).toMatchObject({ value: warm.cacheHit!.share, n: 6, low: warm.cacheHit!.interval.low });
    expect(find('cached_input_tokens', 'cache-warm-2k')!.n).toBe(6);
    expect(warm.cacheHit!.share).toBeCloseTo(5 / 6, 12);
    expect(find('warm_over_cold_ttft', null)!.value).toBe(warm.ttftMs!.p50 / cold.ttftMs!.p50);
    // structured penalty: the ratio of the two entries' medians
    const free = await entry('prose-1k');
    const tool = await entry('tool-call-1k');
    expect(find('speed_penalty', 'tool-call-1k')!.value).toBe(tool.outputTokensPerSecond!.p50 / free.outputTokensPerSecond!.p50);
    // agent turns
    for (const turn of [1, 2, 3]) {
      const e = await entry(`agent-turn-${turn}`);
      const row = (figure: string) => json.items.find((x) => x.family === 'agent_turns' && x.turn === turn && x.figure === figure)!;
      expect(row('ttft_ms').value).toBe(e.ttftMs!.p50);
      expect(row('output_tokens_per_second').value).toBe(e.outputTokensPerSecond!.p50);
      expect(row('cached_input_tokens').value).toBe(e.cachedInputTokens!.p50);
      // n counts the measurements that reported a cache count (turn 3: one of 5 did not), not the speed samples
      expect(row('cached_input_tokens').n).toBe(turn === 3 ? 4 : 5);
      expect(row('ttft_ms').n).toBe(e.samples);
      expect(row('cache_hit_share')).toMatchObject({ value: turn === 1 ? 0 : turn === 2 ? 0.8 : 1, n: turn === 3 ? 4 : 5 });
      // the cached share of the prompt: the entry's figure, the configured truth within the sketch's 0.05 %
      const truth = TURN_SHARES[turn - 1]!;
      expect(row('cached_input_share')).toMatchObject({ value: e.cachedInputShare!.p50, low: e.cachedInputShare!.p5, n: truth.n, unit: 'fraction' });
      expect(Math.abs(e.cachedInputShare!.p50 - truth.share)).toBeLessThanOrEqual(truth.share * 0.0005);
    }
    expect(find('cached_input_share', 'cache-warm-2k')).toMatchObject({ value: warm.cachedInputShare!.p50, n: 5, unit: 'fraction' });
    expect(Math.abs(warm.cachedInputShare!.p50 - 0.875)).toBeLessThanOrEqual(0.875 * 0.0005);
    // the miss (share 0) is in the window: P5 of [0, 0.875 × 4] is 0.2 × 0.875 (type 7)
    expect(Math.abs(warm.cachedInputShare!.p5 - 0.175)).toBeLessThanOrEqual(0.175 * 0.0005);
    // a workload whose measurements never reported both counts has no share (never 0)
    expect(free.cachedInputShare).toBeNull();
    expect(json.items.some((x) => x.figure === 'cached_input_share' && x.workload === 'prose-1k')).toBe(false);

    // the database's per-measurement share (rollups, partials, raw edges) is lib's rule, row by row
    const { sql } = await import('drizzle-orm');
    const { cachedInputShareSql } = await import('@/db/queries/cached-input-share-sql');
    const { cachedInputShare } = await import('@/lib/stats/cached-input-share');
    const rows = (await db.execute(
      sql`select m.cached_input_tokens as cached, m.input_tokens_reported as input, ${cachedInputShareSql('m')} as share from measurements m where m.endpoint_id = ${groq}`,
    )) as unknown as Array<{ cached: number | null; input: number | null; share: number | null }>;
    expect(rows.length).toBe(Object.values(PLAN).reduce((s, p) => s + p.length, 0));
    for (const r of rows) expect(r.share === null ? null : Number(r.share), `${r.cached} ÷ ${r.input}`).toBe(cachedInputShare(r.cached, r.input));
    // and the raw-only reference (exact percentiles) agrees with the published figure
    const { listWindowStatsFromRaw } = await import('@/server/window-stats');
    for (const turn of [2, 3]) {
      const ref = (
        await listWindowStatsFromRaw(db, {
          modelSlug: MODEL,
          workloadSlug: `agent-turn-${turn}`,
          asOf: new Date(),
          windowHours: 72,
          basis: 'o200k',
          region: null,
        })
      ).find((r) => r.endpoint.id === groq)!;
      expect(ref.cachedInputShare).toMatchObject({ p50: TURN_SHARES[turn - 1]!.share, n: TURN_SHARES[turn - 1]!.n });
    }
    // cache lifetime: 2 min 3/3, 5 min 2/3 (> 0.5: hit), 15 min 0/3
    expect(find('cache_lifetime_minutes', null)).toMatchObject({ value: 5, low: 5, high: 15, n: 9, unit: 'minutes' });
    expect(json.items.filter((x) => x.family === 'cache_lifetime' && x.figure === 'cache_hit_share').map((x) => [x.gapMinutes, x.value])).toEqual([
      [2, 1],
      [5, (await entry('cache-lifetime-5m')).cacheHit!.share],
      [15, 0],
    ]);

    // the board columns: the headline board (JSON and CSV) and the warm board carry the pair's figures; other boards null
    const qs = `model=${MODEL}&workload=prose-1k&window=72h`;
    const board = (await (await get(`/api/v1/leaderboard?${qs}`, lb.GET)).json()) as { entries: Array<{ endpoint: { id: number }; promptCache: unknown }> };
    const columns = {
      ttftColdMs: cold.ttftMs!.p50,
      ttftWarmMs: warm.ttftMs!.p50,
      hitShare: warm.cacheHit,
      cachedInputShare: { p50: warm.cachedInputShare!.p50, n: 5 },
    };
    expect(board.entries.find((e) => e.endpoint.id === groq)!.promptCache).toEqual(columns);
    const boardCsv = parseCsv(await (await get(`/api/v1/leaderboard.csv?${qs}`, lbCsv.GET)).text(), { columns: true }) as Array<Record<string, string>>;
    const row = boardCsv.find((r) => r['endpoint.id'] === String(groq))!;
    expect(Number(row['promptCache.ttftColdMs'])).toBe(cold.ttftMs!.p50);
    expect(Number(row['promptCache.ttftWarmMs'])).toBe(warm.ttftMs!.p50);
    expect(Number(row['promptCache.hitShare.share'])).toBe(warm.cacheHit!.share);
    expect(Number(row['promptCache.cachedInputShare.p50'])).toBe(warm.cachedInputShare!.p50);
    // the headline board's own share column: its measurements reported no counts, an empty cell (null)
    expect(row['cachedInputShare.p50']).toBe('');
    expect(warm.promptCache).toEqual(columns);
    expect(tool.promptCache).toBeNull();
  }, 120_000);
});
