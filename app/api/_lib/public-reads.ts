/**
 * Handlers of the public read API (/api/v1 GET routes) that have a JSON and a CSV form. Each reads
 * as parse → load → respond; the route files only bind them to paths (`format` 'csv' for the
 * `.csv` routes; the JSON routes also answer CSV to `Accept: text/csv`). Payloads are typed with
 * the response schemas the OpenAPI document is generated from.
 */
import { connection } from 'next/server';
import type { z } from 'zod';
import { getPublicEndpoint, listModels, listProviders, listWorkloads } from '@/db/queries/catalog';
import { listClaims } from '@/db/queries/claims';
import { listDatasets } from '@/db/queries/datasets';
import { findChangePoints, listEndpointHistory, listModelHistory } from '@/db/queries/history';
import { listEndpointMeasurements } from '@/db/queries/measurements';
import { getDb } from '@/db/shared';
import type {
  claimsResponseSchema,
  datasetsResponseSchema,
  endpointHistoryResponseSchema,
  measurementsResponseSchema,
  modelHistoryResponseSchema,
  modelsResponseSchema,
  providersResponseSchema,
} from '@/lib/api/response-schemas';
import { claimsQuerySchema, emptyQuerySchema, HISTORY_RANGE_HOURS, historyQuerySchema, idParamSchema, measurementsQuerySchema, modelHistoryQuerySchema } from '@/lib/api/schemas';
import { decodeTimeline } from '@/lib/probe/timeline-codec';
import { ApiError, csvRead, jsonRead, parseParam, parseQuery, wantsCsv } from './respond';

type Out<S extends z.ZodType> = z.input<S>;
type Ctx<P> = { params: Promise<P> };
const round = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? null : Math.round(v * 10 ** digits) / 10 ** digits);

/** GET /api/v1/models[.csv] */
export async function modelsResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  const [items, workloads] = await Promise.all([listModels(db), listWorkloads(db)]);
  if (wantsCsv(request, format)) {
    return csvRead(request, ['id', 'slug', 'name', 'family', 'endpoint_count'], items.map((m) => [m.id, m.slug, m.name, m.family, m.endpointCount]), 'tokenpace-models.csv');
  }
  const body: Out<typeof modelsResponseSchema> = { items, workloads };
  return jsonRead(request, body, 300);
}

/** GET /api/v1/providers[.csv] */
export async function providersResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const items = await listProviders(getDb());
  if (wantsCsv(request, format)) {
    return csvRead(request, ['id', 'slug', 'name', 'kind', 'website_url', 'endpoint_count'], items.map((p) => [p.id, p.slug, p.name, p.kind, p.websiteUrl, p.endpointCount]), 'tokenpace-providers.csv');
  }
  const body: Out<typeof providersResponseSchema> = { items };
  return jsonRead(request, body, 300);
}

/** GET /api/v1/claims[.csv] */
export async function claimsResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  const q = parseQuery(claimsQuerySchema, new URL(request.url).searchParams);
  const items = await listClaims(getDb(), { modelSlug: q.model });
  if (wantsCsv(request, format)) {
    const cols = ['subject', 'provider', 'model', 'metric', 'value', 'unit', 'bound', 'measured_by', 'date', 'source_title', 'source_publisher', 'source_url', 'note'];
    return csvRead(request, cols, items.map((c) => [c.subject, c.provider, c.model, c.metric, c.value, c.unit, c.bound, c.measuredBy, c.claimDate, c.sourceTitle, c.sourcePublisher, c.sourceUrl, c.note]), 'tokenpace-claims.csv');
  }
  const body: Out<typeof claimsResponseSchema> = { kind: 'claims', note: 'Published figures reported by vendors or third parties; not measured by Tokenpace.', items };
  return jsonRead(request, body, 300);
}

/** GET /api/v1/datasets[.csv] */
export async function datasetsResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const items = (await listDatasets(getDb())).map((d) => ({ ...d, importedAt: d.importedAt.toISOString() }));
  if (wantsCsv(request, format)) {
    const cols = ['slug', 'title', 'source', 'source_url', 'source_commit', 'licence', 'collected_on', 'imported_at'];
    return csvRead(request, cols, items.map((d) => [d.slug, d.title, d.source, d.sourceUrl, d.sourceCommit, d.licence, d.collectedOn, d.importedAt]), 'tokenpace-datasets.csv');
  }
  const body: Out<typeof datasetsResponseSchema> = { items };
  return jsonRead(request, body, 300);
}

/** GET /api/v1/endpoints/{id}/measurements[.csv] */
export async function measurementsResponse(request: Request, ctx: Ctx<{ id: string }>, format?: 'csv'): Promise<Response> {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const q = parseQuery(measurementsQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  if (!(await getPublicEndpoint(db, id))) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  const page = await listEndpointMeasurements(db, { endpointId: id, limit: q.limit, before: q.cursor ?? null });
  const csv = wantsCsv(request, format);
  const items = page.rows.map(({ timeline, ...m }) => ({
    ...m,
    measuredAt: m.measuredAt.toISOString(),
    ...(q.timeline && !csv ? { timeline: timeline ? decodeTimeline(timeline) : [] } : {}),
  }));
  if (csv) {
    const cols = ['id', 'measured_at', 'worker_region', 'outcome', 'error_kind', 'http_status', 'ttfb_ms', 'ttft_ms', 'ttfat_ms', 'e2e_ms', 'output_tokens_reported', 'output_tokens_o200k', 'output_speed_tokens_per_s', 'output_speed_o200k_tokens_per_s', 'tpot_ms', 'content_chunks', 'finish_reason', 'valid'];
    return csvRead(request, cols, items.map((m) => [m.id, m.measuredAt, m.workerRegion, m.outcome, m.errorKind, m.httpStatus, m.ttfbMs, m.ttftMs, m.ttfatMs, m.e2eMs, m.outputTokensReported, m.outputTokensO200k, m.outputTokensPerSecond, m.outputTokensPerSecondO200k, m.tpotMs, m.contentChunks, m.finishReason, m.valid]), `endpoint-${id}-measurements.csv`);
  }
  const body: Out<typeof measurementsResponseSchema> = { endpointId: id, items, nextCursor: page.nextCursor };
  return jsonRead(request, body, 10);
}

/** [now − range, now] with now at the start of the current minute, so answers (and ETags) hold for a minute. */
function rangeBounds(range: keyof typeof HISTORY_RANGE_HOURS, now = new Date()): { from: Date; to: Date } {
  const to = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  return { from: new Date(to.getTime() - HISTORY_RANGE_HOURS[range] * 3600_000), to };
}

/** GET /api/v1/endpoints/{id}/history[.csv] */
export async function endpointHistoryResponse(request: Request, ctx: Ctx<{ id: string }>, format?: 'csv'): Promise<Response> {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  const q = parseQuery(historyQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  if (!(await getPublicEndpoint(db, id))) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  const { from, to } = rangeBounds(q.range);
  const base = { endpointId: id, workloadSlug: q.workload, from, to, region: q.region ?? null };
  const series = await listEndpointHistory(db, { ...base, granularity: q.granularity });
  const daily = q.granularity === 'day' ? series : await listEndpointHistory(db, { ...base, granularity: 'day' });
  const metric = q.basis === 'o200k' ? 'outputTokensPerSecondO200k' : 'outputTokensPerSecond';
  const changePoints = findChangePoints(daily.map((d) => ({ day: d.bucketStart.slice(0, 10), median: d[metric]?.p50 ?? null })));
  if (wantsCsv(request, format)) {
    const cols = [
      'bucket_start', 'count', 'successes', 'success_rate_fraction',
      'output_speed_p5_tokens_per_s', 'output_speed_p25_tokens_per_s', 'output_speed_p50_tokens_per_s', 'output_speed_p75_tokens_per_s', 'output_speed_p95_tokens_per_s', 'output_speed_o200k_p50_tokens_per_s',
      'ttft_p5_ms', 'ttft_p50_ms', 'ttft_p95_ms', 'ttfat_p50_ms', 'e2e_p5_ms', 'e2e_p50_ms', 'e2e_p95_ms', 'percentile_source',
    ];
    const rows = series.map((s) => [
      s.bucketStart, s.count, s.successes, s.count > 0 ? round(s.successes / s.count, 4) : null,
      round(s.outputTokensPerSecond?.p5), round(s.outputTokensPerSecond?.p25), round(s.outputTokensPerSecond?.p50), round(s.outputTokensPerSecond?.p75), round(s.outputTokensPerSecond?.p95), round(s.outputTokensPerSecondO200k?.p50),
      round(s.ttftMs?.p5), round(s.ttftMs?.p50), round(s.ttftMs?.p95), round(s.ttfatMs?.p50), round(s.e2eMs?.p5), round(s.e2eMs?.p50), round(s.e2eMs?.p95), s.percentileSource,
    ]);
    return csvRead(request, cols, rows, `endpoint-${id}-history-${q.granularity}.csv`);
  }
  const body: Out<typeof endpointHistoryResponseSchema> = {
    endpointId: id,
    workload: q.workload,
    granularity: q.granularity,
    range: q.range,
    region: q.region ?? null,
    basis: q.basis,
    from: from.toISOString(),
    to: to.toISOString(),
    series,
    changePoints,
  };
  return jsonRead(request, body, 60);
}

/** GET /api/v1/history[.csv] */
export async function modelHistoryResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  const q = parseQuery(modelHistoryQuerySchema, new URL(request.url).searchParams);
  const { from, to } = rangeBounds(q.range);
  const series = await listModelHistory(getDb(), { modelSlug: q.model, workloadSlug: q.workload, from, to, region: q.region ?? null, basis: q.basis });
  if (wantsCsv(request, format)) {
    const cols = ['endpoint_id', 'endpoint', 'provider', 'day', 'count', 'successes', 'samples', 'output_speed_p25_tokens_per_s', 'output_speed_p50_tokens_per_s', 'output_speed_p75_tokens_per_s', 'change_point'];
    const rows = series.flatMap((s) => {
      const labels = new Map(s.changePoints.map((c) => [c.day, c.label]));
      return s.days.map((d) => [s.endpoint.id, s.endpoint.slug, s.endpoint.provider, d.day, d.count, d.successes, d.samples, round(d.p25), round(d.median), round(d.p75), labels.get(d.day) ?? null]);
    });
    return csvRead(request, cols, rows, `tokenpace-history-${q.model}-${q.workload}.csv`);
  }
  const body: Out<typeof modelHistoryResponseSchema> = {
    model: q.model,
    workload: q.workload,
    range: q.range,
    region: q.region ?? null,
    basis: q.basis,
    from: from.toISOString(),
    to: to.toISOString(),
    series,
  };
  return jsonRead(request, body, 300);
}
