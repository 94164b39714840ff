import { connection } from 'next/server';
import { z } from 'zod';
import { getDatasetWithSeries } from '@/db/queries/datasets';
import { getDb } from '@/db/shared';
import { ApiError, corsPreflight, handle, jsonRead, parseParam, parseQuery } from '@/app/api/_lib/respond';

// GET /api/v1/datasets/{slug} – one dataset: provenance and each series with its summary statistics (units in field names).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ slug: string }> }) => {
  await connection();
  const slug = parseParam(z.string().regex(/^[a-z0-9][a-z0-9-]{0,80}$/, 'must be a dataset slug'), (await ctx.params).slug, 'slug');
  parseQuery(z.object({}), new URL(request.url).searchParams);
  const found = await getDatasetWithSeries(getDb(), slug);
  if (!found) throw new ApiError('not_found', `dataset ${slug} not found`, 'slug');
  return jsonRead(request, { ...found.dataset, importedAt: found.dataset.importedAt.toISOString(), series: found.series }, 300);
});
export const OPTIONS = corsPreflight;
