import { connection } from 'next/server';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { listEndpointMeasurements } from '@/db/queries/measurements';
import { getDb } from '@/db/shared';
import { idParamSchema, measurementsQuerySchema } from '@/lib/api/schemas';
import { decodeTimeline } from '@/lib/probe/timeline-codec';
import { ApiError, corsPreflight, csvRead, handle, jsonRead, parseParam, parseQuery, wantsCsv } from '@/app/api/_lib/respond';

// GET /api/v1/endpoints/{id}/measurements – an endpoint's measurements, newest first, cursor-paginated, each with its timeline.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const q = parseQuery(measurementsQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  const endpoint = await getPublicEndpoint(db, id);
  if (!endpoint) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  const page = await listEndpointMeasurements(db, { endpointId: id, limit: q.limit, before: q.cursor ?? null });
  const items = page.rows.map(({ timeline, ...m }) => ({
    ...m,
    measuredAt: m.measuredAt.toISOString(),
    ...(q.timeline ? { timeline: timeline ? decodeTimeline(timeline) : [] } : {}),
  }));
  if (wantsCsv(request)) {
    const cols = ['id', 'measured_at', 'worker_region', 'outcome', 'error_kind', 'http_status', 'ttfb_ms', 'ttft_ms', 'ttfat_ms', 'e2e_ms', 'output_tokens_reported', 'output_tokens_o200k', 'output_tps', 'output_tps_o200k', 'tpot_ms', 'content_chunks', 'finish_reason', 'valid'];
    return csvRead(request, cols, items.map((m) => [m.id, m.measuredAt, m.workerRegion, m.outcome, m.errorKind, m.httpStatus, m.ttfbMs, m.ttftMs, m.ttfatMs, m.e2eMs, m.outputTokensReported, m.outputTokensO200k, m.outputTokensPerSecond, m.outputTokensPerSecondO200k, m.tpotMs, m.contentChunks, m.finishReason, m.valid]), `endpoint-${id}-measurements.csv`);
  }
  return jsonRead(request, { endpointId: id, items, nextCursor: page.nextCursor }, 10);
});
export const OPTIONS = corsPreflight;
