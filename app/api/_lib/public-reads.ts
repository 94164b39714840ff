/**
 * Handlers of the public read API (/api/v1 GET routes) that have a JSON and a CSV form. Each reads
 * as parse → load → respond; the route files only bind them to paths (`format` 'csv' for the
 * `.csv` routes; the JSON routes also answer CSV to `Accept: text/csv`). Payloads are typed with
 * the response schemas the OpenAPI document is generated from, and every CSV is written from the
 * same schemas by the one flattener (lib/api/csv.ts): a column is the JSON field's dotted path.
 * A slug or id that names nothing is a 404 naming the field (server/catalog-slugs.ts).
 */
import { listRegionNames } from '@/server/regions';
import { connection } from 'next/server';
import type { z } from 'zod';
import { getPublicEndpoint, listModels, listProviders, listWorkloads } from '@/db/queries/catalog';
import { resolveCatalogSlugs, type CatalogKind } from '@/server/catalog-slugs';
import { listClaims } from '@/db/queries/claims';
import { listDatasets } from '@/db/queries/datasets';
import { listDisclosureRevisions } from '@/db/queries/disclosure-revisions';
import { findChangePoints, listEndpointHistory, listModelHistory } from '@/db/queries/history';
import { CHANGE_POINT_REVISION_DAYS, revisionNear } from '@/lib/catalog/disclosure';
import { getMeasurement, listMeasurements } from '@/db/queries/measurements';
import { publishMeasurement } from '@/lib/api/publish-measurement';
import type { Db } from '@/db/client';
import { getDb } from '@/server/shared';
import {
  claimSchema,
  datasetSchema,
  historyPointSchema,
  measurementSchema,
  modelHistoryCsvRowSchema,
  modelSchema,
  providerSchema,
  type claimsResponseSchema,
  type datasetsResponseSchema,
  endpointHistoryResponseSchema,
  type measurementDetailResponseSchema,
  type measurementsResponseSchema,
  modelHistoryResponseSchema,
  type modelsResponseSchema,
  type providersResponseSchema,
} from '@/lib/api/response-schemas';
import {
  claimsQuerySchema,
  DEPRECATED_HISTORY_RANGES,
  emptyQuerySchema,
  historyQuerySchema,
  measurementIdPathSchema,
  measurementsQuerySchema,
  modelHistoryQuerySchema,
  windowHoursSchema,
  HISTORY_MAX_HOURS,
} from '@/lib/api/schemas';
import { readPublicEndpoint } from './public-endpoint-read';
import { ApiError, csvRead, jsonRead, parseParam, parseQuery, resolveAsOf, wantsCsv } from './respond';

type Out<S extends z.ZodType> = z.input<S>;
type Ctx<P> = { params: Promise<P> };

/** GET /api/v1/models[.csv] */
export async function modelsResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  const [items, workloads] = await Promise.all([listModels(db), listWorkloads(db)]);
  if (wantsCsv(request, format)) {
    return csvRead(request, modelSchema, items, 'tokenpace-models.csv', {}, 300);
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
    return csvRead(request, providerSchema, items, 'tokenpace-providers.csv', {}, 300);
  }
  const body: Out<typeof providersResponseSchema> = { items };
  return jsonRead(request, body, 300);
}

/** GET /api/v1/claims[.csv] */
export async function claimsResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  const q = parseQuery(claimsQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  await requireCatalogSlugs(db, { model: q.model });
  const items = await listClaims(db, { modelSlug: q.model });
  if (wantsCsv(request, format)) return csvRead(request, claimSchema, items, 'tokenpace-claims.csv', {}, 300);
  const body: Out<typeof claimsResponseSchema> = {
    kind: 'claims',
    note: 'Published figures reported by vendors or third parties; not measured by Tokenpace.',
    items,
  };
  return jsonRead(request, body, 300);
}

/** GET /api/v1/datasets[.csv] */
export async function datasetsResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const items = (await listDatasets(getDb())).map((d) => ({ ...d, importedAt: d.importedAt.toISOString() }));
  if (wantsCsv(request, format)) return csvRead(request, datasetSchema, items, 'tokenpace-datasets.csv', {}, 300);
  const body: Out<typeof datasetsResponseSchema> = { items };
  return jsonRead(request, body, 300);
}

/**
 * Throws 404 naming the field when a given model, workload or provider slug is not in the catalog;
 * returns their ids.
 */
export async function requireCatalogSlugs(db: Db, slugs: Partial<Record<CatalogKind, string | undefined>>): Promise<Partial<Record<CatalogKind, number>>> {
  const r = await resolveCatalogSlugs(db, slugs);
  if (r.unknown)
    throw new ApiError(
      'not_found',
      `${r.unknown.kind}: no ${r.unknown.kind} "${r.unknown.slug}" (see /api/v1/${r.unknown.kind === 'workload' ? 'models' : `${r.unknown.kind}s`})`,
      r.unknown.kind,
    );
  return r.ids;
}

/**
 * Throws 404 naming `region` when `region` is given and no worker region of that name has ever
 * measured or runs now (the region pickers' list, in the answer cache until the next data change), like an unknown model: an empty
 * board for a typo would read as "nothing measured there".
 */
export async function requireKnownRegion(db: Db, region: string | undefined | null): Promise<void> {
  if (!region) return;
  const names = await listRegionNames(db);
  if (!names.includes(region)) throw new ApiError('not_found', `region: no worker region "${region}" (see /api/v1/regions)`, 'region');
}

/** GET /api/v1/endpoints/{id}/measurements[.csv] */
export async function measurementsResponse(request: Request, ctx: Ctx<{ id: string }>, format?: 'csv'): Promise<Response> {
  const { id, query: q, db } = await readPublicEndpoint(request, ctx, measurementsQuerySchema);
  const { workload: workloadId } = await requireCatalogSlugs(db, { workload: q.workload });
  const csv = wantsCsv(request, format);
  const page = await listMeasurements(db, {
    filter: { endpointId: id, workloadId, since: q.since ? new Date(q.since) : null, until: q.until ? new Date(q.until) : null, outcome: q.outcome },
    limit: q.limit,
    cursor: q.cursor ?? null,
    withTimeline: q.timeline && !csv,
  });
  const items = page.rows.map((r) => publishMeasurement(r, q.timeline && !csv));
  const nextCursor = page.nextCursor ? `${page.nextCursor.measuredAtMicros}.${page.nextCursor.id}` : null;
  if (csv) {
    const res = csvRead(request, measurementSchema, items, `endpoint-${id}-measurements.csv`, { omit: ['timeline'] }, 10);
    // The CSV body has no room for the cursor: it travels in a header (and a Link to the next page).
    if (nextCursor) {
      const next = new URL(request.url);
      next.searchParams.set('cursor', nextCursor);
      res.headers.set('x-next-cursor', nextCursor);
      res.headers.set('link', `<${next.pathname}${next.search}>; rel="next"`);
    }
    return res;
  }
  const body: Out<typeof measurementsResponseSchema> = { endpointId: id, items, nextCursor };
  return jsonRead(request, body, 10);
}

/** GET /api/v1/measurements/{id} */
export async function measurementResponse(request: Request, ctx: Ctx<{ id: string }>): Promise<Response> {
  await connection();
  const { id } = parseParam(measurementIdPathSchema, { id: (await ctx.params).id }, 'id');
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const db = getDb();
  const row = await getMeasurement(db, id);
  // Measurements of endpoints that are not public (pending, rejected, deleted) are not served.
  if (!row || !(await getPublicEndpoint(db, row.endpointId))) throw new ApiError('not_found', `measurement ${id} not found`, 'id');
  const body = publishMeasurement(row, true) as Out<typeof measurementDetailResponseSchema>;
  return jsonRead(request, body, 3600);
}

/**
 * The history window: `window` (or its deprecated alias `range`, never both) ending at `at` or
 * now (to the minute). Returns the bounds and the window as the answer names it.
 */
function historyBounds(q: { window: number; range?: keyof typeof DEPRECATED_HISTORY_RANGES; at?: string }, params: URLSearchParams, now = new Date()) {
  let hours = q.window;
  let label = params.get('window') ?? undefined;
  if (q.range !== undefined) {
    if (params.has('window')) throw new ApiError('bad_request', 'range: deprecated alias of window; send only window', 'range');
    label = DEPRECATED_HISTORY_RANGES[q.range];
    hours = windowHoursSchema(HISTORY_MAX_HOURS).parse(label);
  }
  const to = resolveAsOf(q.at, now);
  const windowText = label ?? `${hours % 24 === 0 ? `${hours / 24}d` : `${hours}h`}`;
  return { from: new Date(to.getTime() - hours * 3600_000), to, window: windowText, windowHours: hours };
}

/** The window fields of a history answer, in the answer's order: window, windowHours, region (null: all), basis, from, to (ISO). */
function historyWindowFields(q: { region?: string; basis: 'reported' | 'o200k' }, b: ReturnType<typeof historyBounds>) {
  return { window: b.window, windowHours: b.windowHours, region: q.region ?? null, basis: q.basis, from: b.from.toISOString(), to: b.to.toISOString() };
}

/** GET /api/v1/endpoints/{id}/history[.csv] */
export async function endpointHistoryResponse(request: Request, ctx: Ctx<{ id: string }>, format?: 'csv'): Promise<Response> {
  const { id, query: q, db } = await readPublicEndpoint(request, ctx, historyQuerySchema);
  const params = new URL(request.url).searchParams;
  await requireCatalogSlugs(db, { workload: q.workload });
  await requireKnownRegion(db, q.region);
  const bounds = historyBounds(q, params);
  const { from, to } = bounds;
  const base = { endpointId: id, workloadSlug: q.workload, from, to, region: q.region ?? null };
  const series = await listEndpointHistory(db, { ...base, granularity: q.granularity });
  const daily = q.granularity === 'day' ? series : await listEndpointHistory(db, { ...base, granularity: 'day' });
  const metric = q.basis === 'o200k' ? 'outputTokensPerSecondO200k' : 'outputTokensPerSecond';
  const revisions = (await listDisclosureRevisions(db, [id])).filter((r) => r.number > 1);
  // Each change point names the declared change near it, if any (decision 178).
  const changePoints = findChangePoints(daily.map((d) => ({ day: d.bucketStart.slice(0, 10), median: d[metric]?.p50 ?? null }))).map((cp) => {
    const r = revisionNear(revisions, cp.day, CHANGE_POINT_REVISION_DAYS);
    return { ...cp, revision: r ? { id: r.id, number: r.number, effectiveFrom: r.effectiveFrom, changedFields: r.changedFields } : null };
  });
  const body: Out<typeof endpointHistoryResponseSchema> = {
    endpointId: id,
    workload: q.workload,
    granularity: q.granularity,
    ...historyWindowFields(q, bounds),
    series: series as Out<typeof endpointHistoryResponseSchema>['series'],
    changePoints,
  };
  if (wantsCsv(request, format)) {
    const { series: _s, changePoints: _c, ...context } = body;
    return csvRead(
      request,
      historyPointSchema,
      body.series,
      `endpoint-${id}-history-${q.granularity}.csv`,
      { context: { schema: endpointHistoryResponseSchema.omit({ series: true, changePoints: true }), value: context } },
      60,
    );
  }
  return jsonRead(request, body, 60);
}

/** GET /api/v1/history[.csv] */
export async function modelHistoryResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  const params = new URL(request.url).searchParams;
  const q = parseQuery(modelHistoryQuerySchema, params);
  const db = getDb();
  await requireCatalogSlugs(db, { model: q.model, workload: q.workload });
  await requireKnownRegion(db, q.region);
  const bounds = historyBounds(q, params);
  const { from, to } = bounds;
  const series = await listModelHistory(db, { modelSlug: q.model, workloadSlug: q.workload, from, to, region: q.region ?? null, basis: q.basis });
  const body: Out<typeof modelHistoryResponseSchema> = {
    model: q.model,
    workload: q.workload,
    ...historyWindowFields(q, bounds),
    series,
  };
  if (wantsCsv(request, format)) {
    const rows = series.flatMap((s) => {
      const labels = new Map(s.changePoints.map((c) => [c.day, c.label]));
      return s.days.map((d) => ({ ...d, endpoint: s.endpoint, changePoint: labels.get(d.day) ?? null }));
    });
    const { series: _s, ...context } = body;
    return csvRead(
      request,
      modelHistoryCsvRowSchema,
      rows,
      `tokenpace-history-${q.model}-${q.workload}.csv`,
      { context: { schema: modelHistoryResponseSchema.omit({ series: true }), value: context } },
      300,
    );
  }
  return jsonRead(request, body, 300);
}
