import { getEndpointUptime } from '@/db/queries/uptime';
import { uptimeQuerySchema } from '@/lib/api/uptime-schemas';
import { corsPreflight, handle, jsonRead, resolveAsOf } from '@/app/api/_lib/respond';
import { readPublicEndpoint } from '@/app/api/_lib/public-endpoint-read';
import { requireKnownRegion } from '@/app/api/_lib/public-reads';

// GET /api/v1/endpoints/{id}/uptime – share of successful probes over 5m, 30m, 1d and 7d (with n) and the recent probes (status strip).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id, query, db } = await readPublicEndpoint(request, ctx, uptimeQuerySchema);
  // now to the minute (resolveAsOf): one answer, and one ETag, per minute
  await requireKnownRegion(db, query.region);
  const uptime = await getEndpointUptime(db, { endpointId: id, now: resolveAsOf(undefined, new Date()), region: query.region ?? null });
  return jsonRead(request, { endpointId: id, ...uptime });
});

export const OPTIONS = corsPreflight;
