import { connection } from 'next/server';
import { getDatasetWithSeries } from '@/db/queries/datasets';
import { getDb } from '@/server/shared';
import { datasetSlugSchema, emptyQuerySchema } from '@/lib/api/schemas';
import { ApiError, corsPreflight, handle, jsonRead, parseParam, parseQuery } from '@/app/api/_lib/respond';

// GET /api/v1/datasets/{slug} – one dataset: provenance and each series with its summary statistics (units in field names).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ slug: string }> }) => {
  await connection();
  const slug = parseParam(datasetSlugSchema, (await ctx.params).slug, 'slug');
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const found = await getDatasetWithSeries(getDb(), slug);
  if (!found) throw new ApiError('not_found', `dataset ${slug} not found`, 'slug');
  return jsonRead(request, { ...found.dataset, importedAt: found.dataset.importedAt.toISOString(), series: found.series }, 300);
});
export const OPTIONS = corsPreflight;
