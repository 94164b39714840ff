import { connection } from 'next/server';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { listEndpointHistory } from '@/db/queries/history';
import { getDb } from '@/db/shared';
import { historyQuerySchema, idParamSchema } from '@/lib/api/schemas';
import { ApiError, corsPreflight, handle, jsonRead, parseParam, parseQuery } from '@/app/api/_lib/respond';

const RANGE_HOURS = { '24h': 24, '7d': 168, '30d': 720, '90d': 2160, all: 24 * 365 * 20 } as const;

// GET /api/v1/endpoints/{id}/history – hourly or daily rollups (count, successes, P5–P95 per metric).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const q = parseQuery(historyQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  if (!(await getPublicEndpoint(db, id))) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  const to = new Date();
  const from = new Date(to.getTime() - RANGE_HOURS[q.range] * 3600_000);
  const series = await listEndpointHistory(db, { endpointId: id, workloadSlug: q.workload, granularity: q.granularity, from, to, region: q.region ?? null });
  return jsonRead(request, { endpointId: id, workload: q.workload, granularity: q.granularity, range: q.range, series });
});
export const OPTIONS = corsPreflight;
