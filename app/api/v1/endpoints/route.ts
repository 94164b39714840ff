import { connection } from 'next/server';
import { listEndpoints } from '@/db/queries/catalog';
import { getDb } from '@/db/shared';
import { endpointsQuerySchema } from '@/lib/api/schemas';
import { corsPreflight, csvRead, handle, jsonRead, parseQuery, wantsCsv } from '@/app/api/_lib/respond';

// GET /api/v1/endpoints – listed endpoints with declared metadata (filter by model, provider); CSV with Accept: text/csv.
export const GET = handle(async (request: Request) => {
  await connection();
  const q = parseQuery(endpointsQuerySchema, new URL(request.url).searchParams);
  const items = await listEndpoints(getDb(), { modelSlug: q.model, providerSlug: q.provider });
  if (wantsCsv(request)) {
    const cols = ['id', 'slug', 'provider', 'model', 'protocol', 'base_url', 'api_model_id', 'hardware', 'engine', 'precision', 'speculative_decoding', 'deployment_kind', 'region', 'status', 'calibration'];
    return csvRead(request, cols, items.map((e) => [e.id, e.slug, e.provider, e.model, e.protocol, e.baseUrl, e.apiModelId, e.hardware, e.engine, e.precision, e.speculativeDecoding, e.deploymentKind, e.region, e.status, e.isCalibration]), 'tokenpace-endpoints.csv');
  }
  return jsonRead(request, { items });
});
export const OPTIONS = corsPreflight;
