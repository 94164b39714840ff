/**
 * The OpenAPI 3.1 document of the public read API, generated with zod-openapi `createDocument`
 * from the same zod schemas the route handlers validate with (lib/api/schemas.ts) and type their
 * answers with (lib/api/response-schemas.ts). Served at /api/v1/openapi.json and rendered on
 * /api-docs. `API_OPERATIONS` is the single list of documented operations; each carries example
 * parameters that the contract test (app/api/v1/openapi.test.ts) calls.
 */
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import {
  apiErrorSchema,
  claimsResponseSchema,
  datasetDetailResponseSchema,
  datasetsResponseSchema,
  endpointHistoryResponseSchema,
  endpointSchema,
  endpointsResponseSchema,
  leaderboardAnswerSchema,
  measurementsResponseSchema,
  modelHistoryResponseSchema,
  modelsResponseSchema,
  pingResponseSchema,
  providersResponseSchema,
} from './response-schemas';
import {
  claimsQuerySchema,
  datasetSlugPathSchema,
  emptyQuerySchema,
  endpointIdPathSchema,
  endpointsQuerySchema,
  historyQuerySchema,
  leaderboardQuerySchema,
  measurementsQuerySchema,
  modelHistoryQuerySchema,
  snapshotIdPathSchema,
} from './schemas';

/** One documented GET operation. */
export interface ApiOperation {
  path: string;
  operationId: string;
  tag: 'Leaderboard' | 'Catalog' | 'Measurements' | 'History' | 'Claims and datasets' | 'Meta';
  summary: string;
  description: string;
  query?: z.ZodObject;
  pathParams?: z.ZodObject;
  /** JSON response schema; null for CSV-only routes */
  response: z.ZodType | null;
  /** the route also answers text/csv (Accept: text/csv, or it is a .csv route) */
  csv?: boolean;
  /** response cacheable for this many seconds (Cache-Control max-age) */
  maxAgeSeconds: number;
  /** example path parameters for docs and the contract test, e.g. { id: '1' } */
  examplePath?: Record<string, string>;
  /** example query for docs and the contract test */
  exampleQuery?: Record<string, string>;
}

const L = 'Leaderboard';
const leaderboardDesc =
  'Endpoints of one model ranked by median output speed per user (TPS/user) over a window, with P5–P95 of output speed, TTFT, TTFAT and E2E latency, success rate with its Wilson interval, sample counts, a 95 % interval of the median and tie bands. Every answer carries a snapshotId: the exact bytes stay retrievable at /api/v1/snapshots/{snapshotId}. Percentiles come from merged rollup sketches and are within 1 % of the exact values; counts are exact.';

/** Every documented operation of /api/v1 (read-only, GET). */
export const API_OPERATIONS: ApiOperation[] = [
  { path: '/api/v1/leaderboard', operationId: 'getLeaderboard', tag: L, summary: 'Leaderboard (ranked endpoints of a model)', description: leaderboardDesc, query: leaderboardQuerySchema, response: leaderboardAnswerSchema, csv: true, maxAgeSeconds: 30, exampleQuery: { model: 'llama-4-maverick', workload: 'prose-1k', window: '72h' } },
  { path: '/api/v1/leaderboard.csv', operationId: 'getLeaderboardCsv', tag: L, summary: 'Leaderboard as CSV', description: 'The leaderboard as CSV, one row per endpoint, units in the column names (output_speed_p50_tokens_per_s, ttft_p50_ms, success_rate_fraction, …).', query: leaderboardQuerySchema, response: null, csv: true, maxAgeSeconds: 30, exampleQuery: { model: 'llama-4-maverick', window: '7d' } },
  { path: '/api/v1/snapshots/{id}', operationId: 'getSnapshot', tag: L, summary: 'A cited leaderboard answer, byte-identical forever', description: 'The exact JSON first served under this snapshotId. Immutable: Cache-Control immutable, one year. Human page: /s/{id}.', pathParams: snapshotIdPathSchema, response: leaderboardAnswerSchema, maxAgeSeconds: 31_536_000, examplePath: { id: '{snapshotId}' } },
  { path: '/api/v1/models', operationId: 'listModels', tag: 'Catalog', summary: 'Models and workloads', description: 'Models with their listed endpoint counts, and the workloads they are probed with.', query: emptyQuerySchema, response: modelsResponseSchema, csv: true, maxAgeSeconds: 300 },
  { path: '/api/v1/models.csv', operationId: 'listModelsCsv', tag: 'Catalog', summary: 'Models as CSV', description: 'Models as CSV.', query: emptyQuerySchema, response: null, csv: true, maxAgeSeconds: 300 },
  { path: '/api/v1/providers', operationId: 'listProviders', tag: 'Catalog', summary: 'Providers', description: 'Providers with their listed endpoint counts; kind "calibration" marks our reference servers.', query: emptyQuerySchema, response: providersResponseSchema, csv: true, maxAgeSeconds: 300 },
  { path: '/api/v1/providers.csv', operationId: 'listProvidersCsv', tag: 'Catalog', summary: 'Providers as CSV', description: 'Providers as CSV.', query: emptyQuerySchema, response: null, csv: true, maxAgeSeconds: 300 },
  { path: '/api/v1/endpoints', operationId: 'listEndpoints', tag: 'Catalog', summary: 'Endpoints', description: 'Listed endpoints with declared metadata (hardware, engine, precision, speculative decoding, deployment kind); filter by model or provider.', query: endpointsQuerySchema, response: endpointsResponseSchema, csv: true, maxAgeSeconds: 30, exampleQuery: { model: 'llama-4-maverick' } },
  { path: '/api/v1/endpoints.csv', operationId: 'listEndpointsCsv', tag: 'Catalog', summary: 'Endpoints as CSV', description: 'Endpoints as CSV.', query: endpointsQuerySchema, response: null, csv: true, maxAgeSeconds: 30 },
  { path: '/api/v1/endpoints/{id}', operationId: 'getEndpoint', tag: 'Catalog', summary: 'One endpoint', description: 'One listed endpoint’s public record and declared metadata.', pathParams: endpointIdPathSchema, response: endpointSchema, maxAgeSeconds: 30, examplePath: { id: '{endpointId}' } },
  { path: '/api/v1/endpoints/{id}/measurements', operationId: 'listEndpointMeasurements', tag: 'Measurements', summary: 'Raw measurements with timelines', description: 'An endpoint’s measurements (the evidence), newest first, cursor-paginated, each with its timeline of content events unless timeline=0. CSV omits timelines.', pathParams: endpointIdPathSchema, query: measurementsQuerySchema, response: measurementsResponseSchema, csv: true, maxAgeSeconds: 10, examplePath: { id: '{endpointId}' }, exampleQuery: { limit: '5' } },
  { path: '/api/v1/endpoints/{id}/measurements.csv', operationId: 'listEndpointMeasurementsCsv', tag: 'Measurements', summary: 'Raw measurements as CSV', description: 'The measurements page as CSV (no timelines).', pathParams: endpointIdPathSchema, query: measurementsQuerySchema, response: null, csv: true, maxAgeSeconds: 10, examplePath: { id: '{endpointId}' }, exampleQuery: { limit: '5' } },
  { path: '/api/v1/endpoints/{id}/history', operationId: 'getEndpointHistory', tag: 'History', summary: 'Endpoint history (hourly or daily rollups)', description: 'Hourly or daily buckets (count, successes, P5–P95 of output speed, TTFT, TTFAT, E2E, error kinds) from rollups, and change points of the daily median output speed, e.g. "+38% on 2025-06-02".', pathParams: endpointIdPathSchema, query: historyQuerySchema, response: endpointHistoryResponseSchema, csv: true, maxAgeSeconds: 60, examplePath: { id: '{endpointId}' }, exampleQuery: { granularity: 'day', range: '30d' } },
  { path: '/api/v1/endpoints/{id}/history.csv', operationId: 'getEndpointHistoryCsv', tag: 'History', summary: 'Endpoint history as CSV', description: 'The history series as CSV, units in the column names.', pathParams: endpointIdPathSchema, query: historyQuerySchema, response: null, csv: true, maxAgeSeconds: 60, examplePath: { id: '{endpointId}' }, exampleQuery: { granularity: 'hour', range: '7d' } },
  { path: '/api/v1/history', operationId: 'getModelHistory', tag: 'History', summary: 'Model history: daily medians per endpoint', description: 'For every listed endpoint of a model: daily median output speed with P25–P75 and its change points, from daily rollups.', query: modelHistoryQuerySchema, response: modelHistoryResponseSchema, csv: true, maxAgeSeconds: 300, exampleQuery: { model: 'llama-4-maverick', workload: 'prose-1k', range: '90d' } },
  { path: '/api/v1/history.csv', operationId: 'getModelHistoryCsv', tag: 'History', summary: 'Model history as CSV', description: 'One row per endpoint and day.', query: modelHistoryQuerySchema, response: null, csv: true, maxAgeSeconds: 300, exampleQuery: { model: 'llama-4-maverick', range: '30d' } },
  { path: '/api/v1/claims', operationId: 'listClaims', tag: 'Claims and datasets', summary: 'Published claims (not measurements)', description: 'Figures published by vendors or the press, with source, date and bound; shown apart from our measurements.', query: claimsQuerySchema, response: claimsResponseSchema, csv: true, maxAgeSeconds: 300 },
  { path: '/api/v1/claims.csv', operationId: 'listClaimsCsv', tag: 'Claims and datasets', summary: 'Claims as CSV', description: 'Claims as CSV.', query: claimsQuerySchema, response: null, csv: true, maxAgeSeconds: 300 },
  { path: '/api/v1/datasets', operationId: 'listDatasets', tag: 'Claims and datasets', summary: 'Imported third-party datasets', description: 'Imported datasets (e.g. the LLMPerf leaderboard raw data) with provenance and licence.', query: emptyQuerySchema, response: datasetsResponseSchema, csv: true, maxAgeSeconds: 300 },
  { path: '/api/v1/datasets.csv', operationId: 'listDatasetsCsv', tag: 'Claims and datasets', summary: 'Datasets as CSV', description: 'Datasets as CSV.', query: emptyQuerySchema, response: null, csv: true, maxAgeSeconds: 300 },
  { path: '/api/v1/datasets/{slug}', operationId: 'getDataset', tag: 'Claims and datasets', summary: 'One dataset with series summaries', description: 'Provenance and each series’ summary statistics (units in field names).', pathParams: datasetSlugPathSchema, query: emptyQuerySchema, response: datasetDetailResponseSchema, maxAgeSeconds: 300, examplePath: { slug: '{datasetSlug}' } },
  { path: '/api/v1/openapi.json', operationId: 'getOpenApiDocument', tag: 'Meta', summary: 'This OpenAPI 3.1 document', description: 'Generated from the same zod schemas the routes validate with.', query: emptyQuerySchema, response: z.record(z.string(), z.unknown()).meta({ id: 'OpenApiDocument' }), maxAgeSeconds: 3600 },
  { path: '/api/v1/ping', operationId: 'ping', tag: 'Meta', summary: 'Liveness (static JSON)', description: 'A constant answer without database access.', query: emptyQuerySchema, response: pingResponseSchema, maxAgeSeconds: 0 },
];

const errorResponse = (description: string, headers?: Record<string, { description: string; schema: { type: 'integer' | 'string' } }>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: apiErrorSchema } },
});

function operationObject(op: ApiOperation): ZodOpenApiOperationObject {
  const cacheHeaders = {
    ETag: { description: 'Entity tag of the body; send it back in If-None-Match to get 304.', schema: { type: 'string' as const } },
    'Cache-Control': { description: `public, max-age=${op.maxAgeSeconds} (snapshots: immutable)`, schema: { type: 'string' as const } },
    'Access-Control-Allow-Origin': { description: 'Always * (CORS open for reads).', schema: { type: 'string' as const } },
  };
  const content: Record<string, { schema: z.ZodType }> = {};
  if (op.response) content['application/json'] = { schema: op.response };
  if (op.csv) content['text/csv'] = { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row; units in the column names.' }) };
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    requestParams: { ...(op.query ? { query: op.query } : {}), ...(op.pathParams ? { path: op.pathParams } : {}) },
    responses: {
      '200': { description: 'OK', headers: cacheHeaders, content },
      '304': { description: 'Not modified (If-None-Match matched the ETag).' },
      '400': errorResponse('A parameter is invalid or unknown; error.field names it.'),
      ...(op.pathParams ? { '404': errorResponse('No such resource.') } : {}),
      '429': errorResponse('Too many requests from this client address; wait Retry-After seconds.', {
        'Retry-After': { description: 'Seconds until the next request is allowed.', schema: { type: 'integer' } },
      }),
      '500': errorResponse('Unexpected server error (details only in the server log).'),
    },
  };
}

let cached: ReturnType<typeof createDocument> | undefined;

/**
 * The OpenAPI 3.1 document (built once per process). Validates as OpenAPI 3.1
 * (@seriousme/openapi-schema-validator, see the contract test).
 */
export function buildOpenApiDocument(): ReturnType<typeof createDocument> {
  if (cached) return cached;
  const paths: ZodOpenApiPathsObject = {};
  for (const op of API_OPERATIONS) paths[op.path] = { get: operationObject(op) };
  cached = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Tokenpace public API',
      version: '1.0.0',
      description:
        'LLM inference speed per user (TPS/user), measured continuously, with the evidence kept. Read-only, JSON by default, CSV for every list (`.csv` suffix or `Accept: text/csv`), CORS open. Errors always have the shape `{ "error": { "code", "message", "field"? } }`. Reads carry ETag and Cache-Control. Clients are rate limited per IP address: a refused request answers 429 with Retry-After (seconds). Metric definitions: /methodology.',
      license: { name: 'Data: CC BY 4.0 (cite the snapshot)', identifier: 'CC-BY-4.0' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [
      { name: 'Leaderboard', description: 'Ranked endpoints and citable snapshots.' },
      { name: 'Catalog', description: 'Models, workloads, providers, endpoints.' },
      { name: 'Measurements', description: 'Raw evidence: one row per probe, with its timeline.' },
      { name: 'History', description: 'Hourly and daily rollups with change points.' },
      { name: 'Claims and datasets', description: 'Published claims and imported third-party data, kept apart from our measurements.' },
      { name: 'Meta', description: 'Service.' },
    ],
    paths,
  });
  return cached;
}
