/**
 * GET /api/v1/endpoints/{id}/families[.csv]: the workload families' figures of one endpoint over
 * the window (lib/api/family-schemas), composed by server/workload-families from the endpoint's
 * leaderboard entries; JSON `items` and CSV rows are the same rows.
 */
import { familiesQuerySchema, familyFigureSchema } from '@/lib/api/family-schemas';
import { getEndpointFamilyFigures } from '@/server/workload-families';
import { readPublicEndpoint } from './public-endpoint-read';
import { csvRead, jsonRead, wantsCsv } from './respond';

/** GET /api/v1/endpoints/{id}/families[.csv] */
export async function endpointFamiliesResponse(request: Request, ctx: { params: Promise<{ id: string }> }, format?: 'csv'): Promise<Response> {
  const { id, query: q, db, endpoint } = await readPublicEndpoint(request, ctx, familiesQuerySchema);
  const f = await getEndpointFamilyFigures(db, { id, modelSlug: endpoint.modelSlug }, q.window);
  if (wantsCsv(request, format)) return csvRead(request, familyFigureSchema, f.items, `tokenpace-endpoint-${id}-families.csv`, {}, 60);
  return jsonRead(request, { endpointId: id, window: `${q.window}h`, windowStart: f.windowStart, asOf: f.asOf, items: f.items }, 60);
}
