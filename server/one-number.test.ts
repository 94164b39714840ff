/**
 * One number everywhere (issue 10 items 1–3, issue 9 item 3): for seeded data, the same endpoint,
 * window and workload show the identical median in the API JSON, CSV, snapshot, history (day
 * buckets = the 24 h window of that day; model history), endpoint page, compare page, embed and OG
 * data; the published percentiles are within 0.1 % of a brute-force type-7 computation over the
 * rankable measurements; flagged (not rankable) measurements enter no figure and are counted by
 * reason; endpoint counts per provider and per model equal the lists on every surface.
 * Route handlers are called in-process against a real Postgres; pages through their data loaders.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SEED_ENDPOINTS } from '@/lib/catalog/seed-catalog';
import { endpoints, workloads } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { anonymous, params, req, setupApiTest } from '@/app/api/test-support/api-test';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const HOUR = 3600_000;
// Data lies in [now − 70 h, now − 2 h] so every live 72 h window during the test holds all of it.
const NOW = Date.now();
const FIRST = Math.floor((NOW - 70 * HOUR) / HOUR) * HOUR;
const LAST = NOW - 2 * HOUR;
const MODEL = 'llama-4-maverick';
const WORKLOAD = 'prose-1k';

let t: TestDatabase;
let groq: number;
let samba: number;
let extraGroq: number;
/** rankable speeds per endpoint (tokens/s), all probes per endpoint, and flagged ones */
const speeds = new Map<number, Array<{ at: number; v: number; o: number }>>();
const flagged = new Map<number, string[][]>();

/** Brute-force type-7 percentile: sorted x, h = (n − 1)·p, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]). */
function type7(values: number[], p: number): number {
  const x = [...values].sort((a, b) => a - b);
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, x.length - 1);
  return x[lo]! + (h - lo) * (x[hi]! - x[lo]!);
}

/** CSV text → one record per row keyed by the header (csv-parse; a row of the wrong width throws). */
function readCsv(text: string): Array<Record<string, string>> {
  return parseCsv(text, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
}

async function get(path: string, handler: (r: Request, ctx: never) => Promise<Response>, ctx?: unknown): Promise<Response> {
  const res = await handler(req(anonymous, 'GET', path), ctx as never);
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return res;
}

beforeAll(async () => {
  t = await setupApiTest();
  const { seedCatalog } = await import('@/db/seed');
  const { rebuildRollups } = await import('@/db/queries/rollups');
  const { insertMeasurement } = await import('@/db/queries/measurements');
  await seedCatalog(t.db, {
    workloads: [{ slug: WORKLOAD, category: 'prose', inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true }],
    lookupEnv: (n) => (['GROQ_API_KEY', 'SAMBANOVA_API_KEY'].includes(n) ? 'x' : null),
    referencePort: 3999,
  });
  const eps = await t.db.select({ id: endpoints.id, slug: endpoints.slug, providerId: endpoints.providerId, modelId: endpoints.modelId }).from(endpoints);
  const g = eps.find((e) => e.slug === 'groq-llama-4-maverick')!;
  groq = g.id;
  samba = eps.find((e) => e.slug === 'sambanova-llama-4-maverick')!.id;
  // A second Groq endpoint of the model (counts are per provider and per model), and a pending one (not public: never counted).
  const base = { providerId: g.providerId, modelId: g.modelId, protocol: 'openai-chat' as const, baseUrl: 'https://api.groq.com/openai/v1', apiModelId: 'x' };
  extraGroq = (
    await t.db
      .insert(endpoints)
      .values({ ...base, slug: 'groq-llama-4-maverick-batch', status: 'active' })
      .returning({ id: endpoints.id })
  )[0]!.id;
  await t.db.insert(endpoints).values({ ...base, slug: 'groq-pending', status: 'pending' });
  const workloadId = (await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, WORKLOAD)))[0]!.id;
  // Every 20 min (offset 37 s so no probe sits on an hour or day boundary), two regions, skewed
  // speeds; every 9th probe of Groq and SambaNova flagged (not rankable) with an absurd speed.
  let i = 0;
  for (const [id, centre] of [
    [groq, 300],
    [samba, 790],
    [extraGroq, 150],
  ] as const) {
    speeds.set(id, []);
    flagged.set(id, []);
    for (let at = FIRST + 37_000; at <= LAST; at += 20 * 60_000) {
      i++;
      const v = centre * (1 + 0.3 * Math.sin(i * 1.7) ** 3) + (i % 7);
      // the o200k count of the received text is 5 % below the provider's count (a tokenizer a little coarser than o200k)
      const o = v * 0.95;
      const isFlagged = id !== extraGroq && i % 9 === 0;
      const failed = i % 23 === 0;
      const reasons = failed ? ['failed'] : isFlagged ? (i % 2 ? ['token_count_mismatch'] : ['unrecognized_shape', 'token_count_mismatch']) : [];
      await insertMeasurement(t.db, {
        jobKey: `one-number:${id}:${at}`,
        endpointId: id,
        workloadId,
        measuredAt: new Date(at),
        workerRegion: i % 2 ? 'us-east' : 'eu-west',
        workerVersion: 'test',
        outcome: failed ? 'error' : 'success',
        errorKind: failed ? 'timeout' : null,
        ttftMs: failed ? null : 200 + (i % 50),
        e2eMs: failed ? null : 1500 + (i % 300),
        outputTokensPerSecond: failed ? null : isFlagged ? v * 10 : v,
        outputTokensPerSecondO200k: failed ? null : isFlagged ? o * 10 : o,
        contentChunks: failed ? 0 : 100,
        rankable: reasons.length === 0,
        notRankableReasons: reasons,
      });
      if (reasons.length) flagged.get(id)!.push(reasons);
      else speeds.get(id)!.push({ at, v, o });
    }
  }
  for (const granularity of ['hour', 'day'] as const) await rebuildRollups(t.db, { granularity, from: new Date(FIRST - 86400_000), to: new Date(NOW + HOUR) });
}, 180_000);
afterAll(async () => t?.drop());

describe('one number everywhere', () => {
  it('the 72 h median of an endpoint is identical in API JSON, CSV, snapshot, endpoint page, compare page, embed and OG data', async () => {
    const lb = await import('@/app/api/v1/leaderboard/route');
    const lbCsv = await import('@/app/api/v1/leaderboard.csv/route');
    const snap = await import('@/app/api/v1/snapshots/[id]/route');
    const { listEndpointWorkloadFigures, getEndpointWindowEntries } = await import('@/app/_components/endpoint-window');
    const { rankingRows } = await import('@/app/_components/ranking-rows');
    const { getLeaderboardAnswer } = await import('@/server/leaderboard');
    const { leaderboardQuerySchema } = await import('@/lib/api/schemas');
    const { getDb } = await import('@/server/shared');
    const db = getDb();
    const qs = `model=${MODEL}&workload=${WORKLOAD}&window=72h`;

    const json = (await (await get(`/api/v1/leaderboard?${qs}`, lb.GET)).json()) as {
      snapshotId: string;
      entries: Array<{ endpoint: { id: number; slug: string }; outputTokensPerSecond: { p50: number } | null }>;
    };
    const csv = readCsv(await (await get(`/api/v1/leaderboard.csv?${qs}`, lbCsv.GET)).text());
    const snapshot = (await (await get(`/api/v1/snapshots/${json.snapshotId}`, snap.GET, params({ id: json.snapshotId }))).json()) as typeof json;
    const shownWorkloads = [{ slug: WORKLOAD, category: 'prose' }];
    const answer = await getLeaderboardAnswer(db, leaderboardQuerySchema.parse({ model: MODEL, workload: WORKLOAD }));
    const embedRows = rankingRows(answer, []).rows;
    const compare = await getEndpointWindowEntries(db, { endpoints: [groq, samba].map((id) => ({ id, modelSlug: MODEL })), workloadSlugs: [WORKLOAD] });

    for (const id of [groq, samba, extraGroq]) {
      const median = json.entries.find((e) => e.endpoint.id === id)!.outputTokensPerSecond!.p50;
      expect(median).toBeTypeOf('number');
      const slug = json.entries.find((e) => e.endpoint.id === id)!.endpoint.slug;
      const csvRow = csv.find((r) => r['endpoint.id'] === String(id))!;
      expect(Number(csvRow['outputTokensPerSecond.p50']), `CSV ${slug}`).toBe(median);
      expect(snapshot.entries.find((e) => e.endpoint.id === id)!.outputTokensPerSecond!.p50, `snapshot ${slug}`).toBe(median);
      expect(answer.entries.find((e) => e.endpoint.id === id)!.outputTokensPerSecond!.p50, `home/models/providers answer ${slug}`).toBe(median);
      const page = await listEndpointWorkloadFigures(db, { endpoint: { id, modelSlug: MODEL }, workloads: shownWorkloads });
      expect(page.figures[0]!.outputTokensPerSecond!.p50, `endpoint page and OG image ${slug}`).toBe(median);
      expect(embedRows.find((r) => r.key === slug)!.p50, `embed ${slug}`).toBe(median);
      if (id !== extraGroq) expect(compare.entries.get(`${id}|${WORKLOAD}`)!.outputTokensPerSecond!.p50, `compare ${slug}`).toBe(median);
    }
  });

  it('a day of history shows the figures of the 24 h window of that day (API history JSON, model history)', async () => {
    const lb = await import('@/app/api/v1/leaderboard/route');
    const hist = await import('@/app/api/v1/endpoints/[id]/history/route');
    const { listModelHistory } = await import('@/db/queries/history');
    const { getDb } = await import('@/server/shared');
    const dayEnd = new Date(Math.floor(NOW / 86400_000) * 86400_000); // today 00:00 UTC: yesterday is a whole day of data
    const day = new Date(dayEnd.getTime() - 86400_000).toISOString().slice(0, 10);
    const board = (await (await get(`/api/v1/leaderboard?model=${MODEL}&workload=${WORKLOAD}&window=24h&at=${dayEnd.toISOString()}`, lb.GET)).json()) as {
      entries: Array<{
        endpoint: { id: number };
        n: number;
        outputTokensPerSecond: { p50: number; p25: number; p75: number } | null;
        notRankable: { total: number };
      }>;
    };
    const modelHistory = await listModelHistory(getDb(), {
      modelSlug: MODEL,
      workloadSlug: WORKLOAD,
      from: new Date(dayEnd.getTime() - 3 * 86400_000),
      to: dayEnd,
      region: null,
      basis: 'o200k',
    });
    for (const id of [groq, samba]) {
      const entry = board.entries.find((e) => e.endpoint.id === id)!;
      const path = `/api/v1/endpoints/${id}/history?workload=${WORKLOAD}&granularity=day&window=7d`;
      const history = (await (await get(path, hist.GET, params({ id: String(id) }))).json()) as {
        series: Array<{
          bucketStart: string;
          n: number;
          count: number; // alias (decision 280)
          outputTokensPerSecond: { p50: number } | null;
          outputTokensPerSecondO200k: { p50: number } | null;
          notRankable: { total: number };
        }>;
      };
      const point = history.series.find((p) => p.bucketStart.startsWith(day))!;
      expect(point.n).toBe(entry.n);
      expect(point.count, 'the deprecated alias serves the same value').toBe(point.n); // alias (decision 280)
      // the board ranks on the o200k basis by default (decision 175); a history point carries both bases
      expect(point.outputTokensPerSecondO200k!.p50).toBe(entry.outputTokensPerSecond!.p50);
      expect(point.notRankable.total).toBe(entry.notRankable.total);
      const modelDay = modelHistory.find((s) => s.endpoint.id === id)!.days.find((d) => d.day === day)!;
      expect(modelDay.median).toBe(entry.outputTokensPerSecond!.p50);
      expect([modelDay.p25, modelDay.p75]).toEqual([entry.outputTokensPerSecond!.p25, entry.outputTokensPerSecond!.p75]);
    }
  });

  it('published percentiles are within 0.1 % of the exact type-7 order statistics of the rankable measurements', async () => {
    const { getLeaderboardAnswer } = await import('@/server/leaderboard');
    const { leaderboardQuerySchema } = await import('@/lib/api/schemas');
    const { getDb } = await import('@/server/shared');
    const answer = await getLeaderboardAnswer(getDb(), leaderboardQuerySchema.parse({ model: MODEL, workload: WORKLOAD, window: '72h' }));
    for (const id of [groq, samba, extraGroq]) {
      const e = answer.entries.find((x) => x.endpoint.id === id)!;
      // the board's default basis is o200k (decision 175): its percentiles are those of the o200k speeds
      const values = speeds.get(id)!.map((s) => s.o);
      expect(e.samples).toBe(values.length);
      for (const [k, p] of [
        ['p5', 0.05],
        ['p25', 0.25],
        ['p50', 0.5],
        ['p75', 0.75],
        ['p95', 0.95],
      ] as const) {
        const exact = type7(values, p);
        expect(Math.abs(e.outputTokensPerSecond![k] - exact) / exact, `${id} ${k}: ${e.outputTokensPerSecond![k]} vs ${exact}`).toBeLessThanOrEqual(0.001);
      }
    }
  });

  it('flagged measurements enter no figure and are counted by reason (leaderboard JSON and CSV, snapshot, history)', async () => {
    const lbCsv = await import('@/app/api/v1/leaderboard.csv/route');
    const { flushSnapshots, getLeaderboardAnswer } = await import('@/server/leaderboard');
    const { listEndpointHistory } = await import('@/db/queries/history');
    const { getSnapshot } = await import('@/db/queries/snapshots');
    const { leaderboardQuerySchema } = await import('@/lib/api/schemas');
    const { getDb } = await import('@/server/shared');
    const db = getDb();
    const answer = await getLeaderboardAnswer(db, leaderboardQuerySchema.parse({ model: MODEL, workload: WORKLOAD, window: '72h' }));
    const csv = readCsv(await (await get(`/api/v1/leaderboard.csv?model=${MODEL}&workload=${WORKLOAD}&window=72h`, lbCsv.GET)).text());
    await flushSnapshots(db); // rows are written off the request path (decision 121)
    const stored = JSON.parse((await getSnapshot(db, answer.snapshotId))!.body) as typeof answer;
    for (const id of [groq, samba]) {
      const reasons = flagged.get(id)!;
      const byReason: Record<string, number> = {};
      for (const r of reasons.flat()) byReason[r] = (byReason[r] ?? 0) + 1;
      const e = answer.entries.find((x) => x.endpoint.id === id)!;
      expect(reasons.length).toBeGreaterThan(5);
      expect(e.notRankable).toEqual({ total: reasons.length, byReason: Object.fromEntries(Object.entries(byReason).sort()) });
      expect(stored.entries.find((x) => x.endpoint.id === id)!.notRankable).toEqual(e.notRankable);
      const row = csv.find((r) => r['endpoint.id'] === String(id))!;
      expect(Number(row['notRankable.total'])).toBe(reasons.length);
      expect(Number(row['notRankable.byReason.token_count_mismatch'])).toBe(byReason.token_count_mismatch);
      // the flagged speeds are 10× the true ones: any of them in a figure would move P95 past the true maximum
      const max = Math.max(...speeds.get(id)!.map((s) => s.o));
      const maxReported = Math.max(...speeds.get(id)!.map((s) => s.v));
      expect(e.outputTokensPerSecond!.p95).toBeLessThanOrEqual(max * 1.001);
      expect(Number(row['outputTokensPerSecond.p95'])).toBe(e.outputTokensPerSecond!.p95);
      const hours = await listEndpointHistory(db, {
        endpointId: id,
        workloadSlug: WORKLOAD,
        granularity: 'hour',
        from: new Date(FIRST),
        to: new Date(NOW),
        region: null,
      });
      expect(hours.reduce((s, h) => s + h.notRankable.total, 0)).toBe(reasons.length);
      for (const h of hours) {
        if (h.outputTokensPerSecond) expect(h.outputTokensPerSecond.p95).toBeLessThanOrEqual(maxReported * 1.001);
        if (h.outputTokensPerSecondO200k) expect(h.outputTokensPerSecondO200k.p95).toBeLessThanOrEqual(max * 1.001);
      }
    }
  });
});

describe('true counts', () => {
  it('endpoint counts per provider and per model equal the lists in JSON, CSV, /providers and /models', async () => {
    const providersRoute = await import('@/app/api/v1/providers/route');
    const providersCsv = await import('@/app/api/v1/providers.csv/route');
    const modelsRoute = await import('@/app/api/v1/models/route');
    const modelsCsv = await import('@/app/api/v1/models.csv/route');
    const endpointsRoute = await import('@/app/api/v1/endpoints/route');
    const { listProviders, listModels, listEndpoints } = await import('@/db/queries/catalog');
    const { getDb } = await import('@/server/shared');
    const db = getDb();
    type Counted = { slug: string; endpointCount: number };
    const items = async (path: string, handler: (r: Request, ctx: never) => Promise<Response>) => {
      const body = (await (await get(path, handler)).json()) as { items?: Counted[]; data?: Counted[] } | Counted[];
      return Array.isArray(body) ? body : (body.items ?? body.data ?? []);
    };
    const listed = async (q: string) => {
      const body = (await (await get(`/api/v1/endpoints?${q}`, endpointsRoute.GET)).json()) as { items?: unknown[]; data?: unknown[] } | unknown[];
      return (Array.isArray(body) ? body : (body.items ?? body.data ?? [])).length;
    };
    const csvCount = (rows: Array<Record<string, string>>, slug: string) =>
      Number(rows.find((r) => r.slug === slug)![Object.keys(rows[0]!).find((k) => /endpoint_?count/i.test(k))!]);
    const surfaces = [
      {
        kind: 'provider' as const,
        json: await items('/api/v1/providers', providersRoute.GET),
        csv: readCsv(await (await get('/api/v1/providers.csv', providersCsv.GET)).text()),
        page: await listProviders(db),
      },
      {
        kind: 'model' as const,
        json: await items('/api/v1/models', modelsRoute.GET),
        csv: readCsv(await (await get('/api/v1/models.csv', modelsCsv.GET)).text()),
        page: await listModels(db),
      },
    ];
    for (const { kind, json, csv, page } of surfaces) {
      expect(json.length, kind).toBeGreaterThan(1);
      for (const x of json) {
        const want = (await listEndpoints(db, kind === 'provider' ? { providerSlug: x.slug } : { modelSlug: x.slug })).length;
        expect(await listed(`${kind}=${x.slug}`), `API list of ${kind} ${x.slug}`).toBe(want);
        expect(x.endpointCount, `JSON ${kind} ${x.slug}`).toBe(want);
        expect(csvCount(csv, x.slug), `CSV ${kind} ${x.slug}`).toBe(want);
        expect(page.find((p) => p.slug === x.slug)!.endpointCount, `/${kind}s page ${x.slug}`).toBe(want);
      }
    }
    const [providersJson, modelsJson] = [surfaces[0]!.json, surfaces[1]!.json];
    expect(providersJson.length).toBeGreaterThan(10);
    // the catalog's counts (every seeded endpoint, retired ones included: they stay listed) plus the second Groq one
    const seeded = (f: (e: (typeof SEED_ENDPOINTS)[number]) => boolean) => SEED_ENDPOINTS.filter(f).length;
    expect(providersJson.find((p) => p.slug === 'groq')!.endpointCount).toBe(seeded((e) => e.providerSlug === 'groq') + 1);
    expect(providersJson.find((p) => p.slug === 'sambanova')!.endpointCount).toBe(seeded((e) => e.providerSlug === 'sambanova'));
    expect(modelsJson.find((m) => m.slug === MODEL)!.endpointCount).toBe(seeded((e) => e.modelSlug === MODEL) + 1);
  });
});
