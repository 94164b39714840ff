/**
 * The model comparison (home page, GET /api/v1/model-comparison): each model's best endpoint is
 * its own board's first ranked entry, figure for figure; filters choose which endpoints may stand for
 * a model, at the edges of their bounds; unknown price or context never passes a bound.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endpoints, workloads } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { anonymous, req, setupApiTest } from '@/app/api/test-support/api-test';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { applyComparisonFilters, endpointPasses, getModelComparison, type ComparedModel } from './model-comparison';
import { getLeaderboardAnswer } from './leaderboard';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const HOUR = 3600_000;
const NOW = Date.now();
const WORKLOAD = 'prose-1k';
let t: TestDatabase;
/** endpoint slug → centre speed (tokens/s) of its synthetic probes */
const CENTRES: Record<string, number> = {
  'groq-llama-4-maverick': 300,
  'sambanova-llama-4-maverick': 700,
  'cerebras-gpt-oss-120b': 2500,
  'groq-gpt-oss-120b': 500,
  'deepinfra-gpt-oss-120b': 120,
  'anthropic-claude-haiku-4-5': 90,
};

beforeAll(async () => {
  t = await setupApiTest();
  const { seedAllActive } = await import('@/db/test-support/seed-all-active');
  const { rebuildRollups } = await import('@/db/queries/rollups');
  const { insertMeasurement } = await import('@/db/queries/measurements');
  await seedAllActive(t.db, { [WORKLOAD]: 'prose' });
  const eps = await t.db.select({ id: endpoints.id, slug: endpoints.slug }).from(endpoints);
  const workloadId = (await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, WORKLOAD)))[0]!.id;
  let i = 0;
  for (const [slug, centre] of Object.entries(CENTRES)) {
    const id = eps.find((e) => e.slug === slug)!.id;
    for (let k = 0; k < 40; k++) {
      const v = centre * (0.9 + (0.2 * ((k * 7919) % 100)) / 100);
      await insertMeasurement(t.db, {
        jobKey: `cmp:${id}:${k}`,
        endpointId: id,
        workloadId,
        measuredAt: new Date(NOW - 2 * HOUR - k * 60 * 60_000 - 37_000),
        workerRegion: 'local',
        workerVersion: 'test',
        outcome: 'success',
        ttftMs: 100 + k,
        ttfatMs: 110 + k,
        e2eMs: 1000,
        outputTokensReported: 256,
        outputTokensO200k: 256,
        outputTokensPerSecond: v,
        outputTokensPerSecondO200k: v,
        contentChunks: 40,
      });
      i++;
    }
  }
  expect(i).toBe(240);
  for (const g of ['hour', 'day'] as const) await rebuildRollups(t.db, { granularity: g, from: new Date(NOW - 4 * 86400_000), to: new Date(NOW + HOUR) });
});
afterAll(async () => t?.drop());

const q = { workload: WORKLOAD, window: 72, basis: 'o200k' as const, region: undefined }; // the boards' default basis (decision 175)

describe('model comparison', () => {
  it('each model’s best endpoint is its board’s first ranked entry, figure for figure', async () => {
    const cmp = await getModelComparison(t.db, q);
    const measured = cmp.models.filter((m) => m.best);
    expect(measured.map((m) => m.slug)).toEqual(['gpt-oss-120b', 'llama-4-maverick', 'claude-haiku-4-5']);
    for (const m of measured) {
      const board = await getLeaderboardAnswer(t.db, leaderboardQuerySchema.parse({ model: m.slug, workload: WORKLOAD }));
      const first = board.entries.find((e) => e.rank !== null)!;
      expect(m.snapshotId).toBe(board.snapshotId);
      expect(m.best!.id).toBe(first.endpoint.id);
      expect(m.best!.outputTokensPerSecond).toEqual(first.outputTokensPerSecond);
      expect(m.best!.outputTokensPerSecondMedianCi).toEqual(first.outputTokensPerSecondMedianCi);
      expect(m.best!.ttftMs).toEqual(first.ttftMs);
      expect(m.best!.blendedUsdPerMTokens).toBe(first.endpoint.blendedUsdPerMTokens);
      expect(m.ranked.map((e) => e.id)).toEqual(board.entries.filter((e) => e.rank !== null).map((e) => e.endpoint.id));
    }
    expect(measured[0]!.best!.slug).toBe('cerebras-gpt-oss-120b');
    // unmeasured models are listed after, with best null (never a number)
    const rest = cmp.models.filter((m) => !m.best);
    expect(rest.length).toBeGreaterThanOrEqual(10);
    expect(rest.every((m) => m.ranked.length === 0)).toBe(true);
    expect(cmp.models.some((m) => m.slug === 'tokenpace-reference')).toBe(false);
  });

  it('filters: provider, price ceiling (at passes, just over fails, unknown fails), context minimum, weights, retired', async () => {
    const cmp = await getModelComparison(t.db, q);
    const gptOss = () => (ms: ComparedModel[]) => ms.find((m) => m.slug === 'gpt-oss-120b');
    // provider: the first ranked Groq endpoint stands for gpt-oss
    expect(gptOss()(applyComparisonFilters(cmp.models, { providers: ['groq'] }))!.best!.slug).toBe('groq-gpt-oss-120b');
    const cerebras = cmp.models.find((m) => m.slug === 'gpt-oss-120b')!.ranked.find((e) => e.slug === 'cerebras-gpt-oss-120b')!;
    const price = cerebras.blendedUsdPerMTokens!;
    expect(price).toBeCloseTo((3 * 0.35 + 0.75) / 4, 12);
    expect(gptOss()(applyComparisonFilters(cmp.models, { maxBlendedUsdPerMTokens: price }))!.best!.slug).toBe('cerebras-gpt-oss-120b');
    expect(gptOss()(applyComparisonFilters(cmp.models, { maxBlendedUsdPerMTokens: price - 1e-9 }))!.best!.slug).toBe('groq-gpt-oss-120b');
    // context: Cerebras declares 131072; one more token and Groq (131072) fails too, DeepInfra (131072) as well
    expect(gptOss()(applyComparisonFilters(cmp.models, { minContextWindowTokens: 131_072 }))!.best!.slug).toBe('cerebras-gpt-oss-120b');
    expect(gptOss()(applyComparisonFilters(cmp.models, { minContextWindowTokens: 131_073 }))).toBeUndefined();
    // unknown never passes a bound
    expect(endpointPasses({ providerSlug: 'x', blendedUsdPerMTokens: null, contextWindowTokens: 1 }, { maxBlendedUsdPerMTokens: 1000 })).toBe(false);
    expect(endpointPasses({ providerSlug: 'x', blendedUsdPerMTokens: 1, contextWindowTokens: null }, { minContextWindowTokens: 1 })).toBe(false);
    expect(endpointPasses({ providerSlug: 'x', blendedUsdPerMTokens: null, contextWindowTokens: null }, {})).toBe(true);
    // weights
    const prop = applyComparisonFilters(cmp.models, { weights: 'proprietary' });
    expect(prop.every((m) => m.weights === 'proprietary')).toBe(true);
    expect(prop.find((m) => m.best)!.slug).toBe('claude-haiku-4-5');
    expect(applyComparisonFilters(cmp.models, { weights: 'open' }).some((m) => m.slug === 'claude-haiku-4-5')).toBe(false);
    // an unmeasured model stays when its declared facts could pass, and goes when they cannot
    const groqOnly = applyComparisonFilters(cmp.models, { providers: ['groq'] });
    expect(groqOnly.some((m) => m.slug === 'qwen3-32b' && m.best === null)).toBe(true);
    expect(groqOnly.some((m) => m.slug === 'grok-4')).toBe(false);
  });

  it('GET /api/v1/model-comparison: JSON and CSV carry the same figures; bad filters answer 400 naming the field; unknown workload 404', async () => {
    const route = await import('@/app/api/v1/model-comparison/route');
    const csvRoute = await import('@/app/api/v1/model-comparison.csv/route');
    const res = await route.GET(req(anonymous, 'GET', '/api/v1/model-comparison?provider=groq,cerebras&maxPrice=0.5'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      items: Array<{ slug: string; best: { slug: string; outputTokensPerSecond: { p50: number }; blendedUsdPerMTokens: number } | null }>;
    };
    const g = body.items.find((m) => m.slug === 'gpt-oss-120b')!;
    expect(g.best!.slug).toBe('cerebras-gpt-oss-120b');
    expect(body.items.every((m) => !m.best || m.best.blendedUsdPerMTokens <= 0.5)).toBe(true);
    const csv = parseCsv(await (await csvRoute.GET(req(anonymous, 'GET', '/api/v1/model-comparison.csv?provider=groq,cerebras&maxPrice=0.5'))).text(), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(csv.map((r) => r.slug)).toEqual(body.items.map((m) => m.slug));
    const row = csv.find((r) => r.slug === 'gpt-oss-120b')!;
    expect(Number(row['best.outputTokensPerSecond.p50'])).toBe(g.best!.outputTokensPerSecond.p50);
    expect(row.workload).toBe(WORKLOAD);
    for (const [query, field] of [
      ['maxPrice=-1', 'maxPrice'],
      ['minContext=0', 'minContext'],
      ['provider=Groq', 'provider'],
      ['weights=closed', 'weights'],
      ['model=x', 'model'],
      ['window=3%20days', 'window'],
    ] as const) {
      const bad = await route.GET(req(anonymous, 'GET', `/api/v1/model-comparison?${query}`));
      expect(bad.status, query).toBe(400);
      expect(((await bad.json()) as { error: { field: string } }).error.field, query).toBe(field);
    }
    const missing = await route.GET(req(anonymous, 'GET', '/api/v1/model-comparison?workload=no-such'));
    expect(missing.status).toBe(404);
  });
});
