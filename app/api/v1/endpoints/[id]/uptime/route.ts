import { connection } from 'next/server';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { getEndpointUptime } from '@/db/queries/uptime';
import { getDb } from '@/server/shared';
import { idParamSchema } from '@/lib/api/schemas';
import { uptimeQuerySchema } from '@/lib/api/uptime-schemas';
import { ApiError, corsPreflight, handle, jsonRead, parseParam, parseQuery, resolveAsOf } from '@/app/api/_lib/respond';
import { requireKnownRegion } from '@/app/api/_lib/public-reads';

// GET /api/v1/endpoints/{id}/uptime – share of successful probes over 5m, 30m, 1d and 7d (with n) and the recent probes (status strip).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const query = parseQuery(uptimeQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  const endpoint = await getPublicEndpoint(db, id);
  if (!endpoint) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  // now to the minute (resolveAsOf): one answer, and one ETag, per minute
  await requireKnownRegion(db, query.region);
  const uptime = await getEndpointUptime(db, { endpointId: id, now: resolveAsOf(undefined, new Date()), region: query.region ?? null });
  return jsonRead(request, { endpointId: id, ...uptime });
});

export const OPTIONS = corsPreflight;
