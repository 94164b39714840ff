/**
 * GET /api/v1/endpoints/{id}/families[.csv]: the workload families' figures of one endpoint over
 * the window (lib/api/family-schemas), composed by server/workload-families from the endpoint's
 * leaderboard entries; JSON `items` and CSV rows are the same rows.
 */
import { connection } from 'next/server';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { familiesQuerySchema, familyFigureSchema } from '@/lib/api/family-schemas';
import { idParamSchema } from '@/lib/api/schemas';
import { getDb } from '@/server/shared';
import { getEndpointFamilyFigures } from '@/server/workload-families';
import { ApiError, csvRead, jsonRead, parseParam, parseQuery, wantsCsv } from './respond';

/** GET /api/v1/endpoints/{id}/families[.csv] */
export async function endpointFamiliesResponse(request: Request, ctx: { params: Promise<{ id: string }> }, format?: 'csv'): Promise<Response> {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const q = parseQuery(familiesQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  const endpoint = await getPublicEndpoint(db, id);
  if (!endpoint) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  const f = await getEndpointFamilyFigures(db, { id, modelSlug: endpoint.modelSlug }, q.window);
  if (wantsCsv(request, format)) return csvRead(request, familyFigureSchema, f.items, `tokenpace-endpoint-${id}-families.csv`, {}, 60);
  return jsonRead(request, { endpointId: id, window: `${q.window}h`, windowStart: f.windowStart, asOf: f.asOf, items: f.items }, 60);
}
