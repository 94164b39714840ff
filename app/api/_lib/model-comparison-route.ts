import { connection } from 'next/server';
import { getDb } from '@/server/shared';
import { modelComparisonQuerySchema } from '@/lib/api/schemas';
import { comparedModelSchema, modelComparisonResponseSchema } from '@/lib/api/response-schemas';
import { applyComparisonFilters, getModelComparison } from '@/server/model-comparison';
import { requireCatalogSlugs } from './public-reads';
import { csvRead, jsonRead, parseQuery, wantsCsv } from './respond';

/**
 * Shared by /api/v1/model-comparison and its .csv: parse the query (400 naming the field) → 404 for
 * an unknown workload → every model's fastest endpoint passing the filters, figures copied from each
 * model's leaderboard answer (server/model-comparison) → JSON, or CSV with one line per model
 * (dotted JSON paths) and the answer's workload, window and basis as trailing columns.
 */
export async function modelComparisonResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  const q = parseQuery(modelComparisonQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  await requireCatalogSlugs(db, { workload: q.workload });
  const answer = await getModelComparison(db, { workload: q.workload, window: q.window, basis: q.basis, region: q.region });
  const items = applyComparisonFilters(answer.models, {
    weights: q.weights ?? null,
    providers: q.provider ? q.provider.split(',') : [],
    maxBlendedUsdPerMTokens: q.maxPrice ?? null,
    minContextWindowTokens: q.minContext ?? null,
    includeRetired: q.retired === 'include',
  }).map(({ ranked: _ranked, ...m }) => m);
  const { models: _models, ...context } = answer;
  if (wantsCsv(request, format)) {
    return csvRead(
      request,
      comparedModelSchema,
      items,
      `tokenpace-model-comparison-${q.workload}.csv`,
      { context: { schema: modelComparisonResponseSchema.omit({ items: true, asOf: true }), value: context } },
      30,
    );
  }
  return jsonRead(request, { ...context, items }, 30);
}
