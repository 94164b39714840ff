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
  apiTokensResponseSchema,
  claimsResponseSchema,
  createdApiTokenSchema,
  datasetDetailResponseSchema,
  datasetsResponseSchema,
  deletedEndpointSchema,
  dumpManifestSchema,
  signingKeysResponseSchema,
  rulesResponseSchema,
  dumpsResponseSchema,
  endpointHistoryResponseSchema,
  endpointSchema,
  endpointsResponseSchema,
  leaderboardAnswerSchema,
  measurementDetailResponseSchema,
  measurementsResponseSchema,
  modelHistoryResponseSchema,
  modelsResponseSchema,
  modelComparisonResponseSchema,
  ownedEndpointsResponseSchema,
  pingResponseSchema,
  providersResponseSchema,
  reviewResultSchema,
  revokedApiTokenSchema,
  submissionResultSchema,
} from './response-schemas';
import {
  annotationResultSchema,
  annotationsQuerySchema,
  annotationsResponseSchema,
  createAnnotationBodySchema,
  disputeResultSchema,
  disputesQuerySchema,
  disputesResponseSchema,
  openDisputeBodySchema,
  resolveDisputeBodySchema,
} from './dispute-schemas';
import { disclosureRevisionsResponseSchema } from './disclosure-schemas';
import { regionsResponseSchema } from './region-schemas';
import { endpointUptimeSchema, uptimeQuerySchema } from './uptime-schemas';
import { tokenHonestyQuerySchema, tokenHonestySchema } from './token-honesty-schemas';
import { familiesQuerySchema, familiesResponseSchema } from './family-schemas';
import {
  claimsQuerySchema,
  datasetSlugPathSchema,
  emptyQuerySchema,
  endpointIdPathSchema,
  endpointsQuerySchema,
  historyQuerySchema,
  idParamSchema,
  leaderboardQuerySchema,
  modelComparisonQuerySchema,
  measurementIdPathSchema,
  measurementsQuerySchema,
  modelHistoryQuerySchema,
  snapshotIdPathSchema,
} from './schemas';
import { createEndpointBodySchema, createTokenBodySchema, reviewEndpointBodySchema, updateEndpointBodySchema } from './submission-schemas';
import { SWEEP_API_OPERATIONS } from '../sweep/api-operations';
import { workloadsResponseSchema } from './workload-schemas';
import { withCsvTwin, type ApiOperation } from './api-operation';

export type { ApiOperation } from './api-operation';

const L = 'Leaderboard';
const leaderboardDesc =
  'Endpoints of one model ranked by median output speed per user (TPS/user) over a window, with P5–P95 of output speed, TTFT, TTFAT and E2E latency, success rate with its Wilson interval, sample counts, a 95 % interval of the median and tie bands. Every answer carries a snapshotId: the exact bytes stay retrievable at /api/v1/snapshots/{snapshotId}. Percentiles are type 7 of the rankable measurements, read from merged rollup sketches within 0.05 % of the exact values; counts are exact; each entry counts the measurements left out (excluded, by reason).';

/** Every documented operation of /api/v1: the public reads (GET) and the write routes of submission, tokens and review. */
export const API_OPERATIONS: ApiOperation[] = [
  ...withCsvTwin(
    {
      path: '/api/v1/leaderboard',
      operationId: 'getLeaderboard',
      tag: L,
      summary: 'Leaderboard (ranked endpoints of a model)',
      description: leaderboardDesc,
      query: leaderboardQuerySchema,
      response: leaderboardAnswerSchema,
      csv: true,
      maxAgeSeconds: 30,
      exampleQuery: { model: 'llama-4-maverick', workload: 'prose-1k', window: '72h' },
    },
    {
      summary: 'Leaderboard as CSV',
      description:
        'The leaderboard as CSV, one line per entry: every JSON figure under its dotted JSON path (rank, band, endpoint.id, outputTokensPerSecond.p50, ttftMs.p95, successRateInterval.low, errorKinds.timeout, lastMeasuredAt, …), then the answer’s asOf, window, model, workload, region, basis and snapshotId.',
      exampleQuery: { model: 'llama-4-maverick', window: '7d' },
    },
  ),
  {
    path: '/api/v1/snapshots/{id}',
    operationId: 'getSnapshot',
    tag: L,
    summary: 'A cited leaderboard answer, byte-identical forever',
    description: 'The exact JSON first served under this snapshotId. Immutable: Cache-Control immutable, one year. Human page: /s/{id}.',
    pathParams: snapshotIdPathSchema,
    response: leaderboardAnswerSchema,
    maxAgeSeconds: 31_536_000,
    examplePath: { id: '{snapshotId}' },
  },
  ...withCsvTwin(
    {
      path: '/api/v1/model-comparison',
      operationId: 'getModelComparison',
      tag: L,
      summary: 'Models compared: each model’s fastest endpoint',
      description:
        'For every listed model, its fastest ranked endpoint for one workload and window: the first ranked entry of the model’s own leaderboard (same figures, same engine: TPS/user percentiles and the 95 % interval of the median, TTFT, success rate, fidelity) with its declared precision, context window and blended price. Filters (weights, provider, maxPrice, minContext) choose which endpoints may stand for a model; an unknown price or context window never passes a bound. Each model cites the snapshotId of its board.',
      query: modelComparisonQuerySchema,
      response: modelComparisonResponseSchema,
      csv: true,
      maxAgeSeconds: 30,
      exampleQuery: { workload: 'prose-1k', window: '72h' },
    },
    {
      summary: 'Models compared, as CSV',
      description:
        'The model comparison as CSV, one line per model: every JSON field under its dotted path (slug, weights, best.provider, best.outputTokensPerSecond.p50, best.outputTokensPerSecondMedianCi.low, best.ttftMs.p50, best.blendedUsdPerMTokens, snapshotId, …), then the answer’s workload, window and basis.',
      exampleQuery: { window: '7d' },
    },
  ),
  ...withCsvTwin(
    {
      path: '/api/v1/models',
      operationId: 'listModels',
      tag: 'Catalog',
      summary: 'Models and workloads',
      description: 'Models with their listed endpoint counts, and the workloads they are probed with.',
      query: emptyQuerySchema,
      response: modelsResponseSchema,
      csv: true,
      maxAgeSeconds: 300,
    },
    {
      summary: 'Models as CSV',
      description: 'Models as CSV.',
    },
  ),
  ...withCsvTwin(
    {
      path: '/api/v1/workloads',
      operationId: 'listWorkloads',
      tag: 'Catalog',
      summary: 'The workload grid',
      description:
        'Every workload probes are sent with (the one source of truth: lib/probe/workloads): slug, category (prose, code, math, json), inputTokens (~100, ~1,000, ~10,000, ~100,000), maxOutputTokens, description, the cadence (probesPerDay per endpoint) and the fidelity check each carries.',
      query: emptyQuerySchema,
      response: workloadsResponseSchema,
      csv: true,
      maxAgeSeconds: 300,
    },
    {
      summary: 'The workload grid as CSV',
      description: 'The workload grid as CSV.',
    },
  ),
  {
    path: '/api/v1/providers',
    operationId: 'listProviders',
    tag: 'Catalog',
    summary: 'Providers',
    description: 'Providers with their listed endpoint counts; kind "calibration" marks our reference servers.',
    query: emptyQuerySchema,
    response: providersResponseSchema,
    csv: true,
    maxAgeSeconds: 300,
  },
  {
    path: '/api/v1/regions',
    operationId: 'listRegions',
    tag: 'Catalog',
    summary: 'Worker regions',
    description:
      'Regions probes run from, with measurement counts (all time, last 7 days), the newest measured hour and live workers. Leaderboard, history and uptime take region= for one region; without it regions are merged.',
    query: emptyQuerySchema,
    response: regionsResponseSchema,
    maxAgeSeconds: 60,
  },
  {
    path: '/api/v1/providers.csv',
    operationId: 'listProvidersCsv',
    tag: 'Catalog',
    summary: 'Providers as CSV',
    description: 'Providers as CSV.',
    query: emptyQuerySchema,
    response: null,
    csv: true,
    maxAgeSeconds: 300,
  },
  {
    path: '/api/v1/endpoints',
    operationId: 'listEndpoints',
    tag: 'Catalog',
    summary: 'Endpoints',
    description: 'Listed endpoints with declared metadata (hardware, engine, precision, speculative decoding, deployment kind); filter by model or provider.',
    query: endpointsQuerySchema,
    response: endpointsResponseSchema,
    csv: true,
    maxAgeSeconds: 30,
    exampleQuery: { model: 'llama-4-maverick' },
  },
  {
    path: '/api/v1/endpoints.csv',
    operationId: 'listEndpointsCsv',
    tag: 'Catalog',
    summary: 'Endpoints as CSV',
    description: 'Endpoints as CSV.',
    query: endpointsQuerySchema,
    response: null,
    csv: true,
    maxAgeSeconds: 30,
  },
  {
    path: '/api/v1/endpoints/{id}',
    operationId: 'getEndpoint',
    tag: 'Catalog',
    summary: 'One endpoint',
    description: 'One listed endpoint’s public record and declared metadata.',
    pathParams: endpointIdPathSchema,
    response: endpointSchema,
    maxAgeSeconds: 30,
    examplePath: { id: '{endpointId}' },
  },
  {
    path: '/api/v1/endpoints/{id}/uptime',
    operationId: 'getEndpointUptime',
    tag: 'Catalog',
    summary: 'Uptime of one endpoint',
    description:
      'Share of successful probes over the trailing 5 minutes, 30 minutes, 1 day and 7 days (with n; cancelled probes excluded), and the most recent probes as a status strip; all regions merged unless region= is given.',
    pathParams: endpointIdPathSchema,
    query: uptimeQuerySchema,
    response: endpointUptimeSchema,
    maxAgeSeconds: 30,
    examplePath: { id: '{endpointId}' },
  },
  {
    path: '/api/v1/endpoints/{id}/token-honesty',
    operationId: 'getEndpointTokenHonesty',
    tag: 'Catalog',
    summary: 'Token honesty of one endpoint',
    description:
      'Provider-reported output tokens ÷ the o200k_base count of the text received, over the window, with its percentile-bootstrap 95 % interval, beside the band the model’s tokenizer family should show; over_reported / under_reported when the whole interval lies outside it. Rankings use the o200k count (decision 175).',
    pathParams: endpointIdPathSchema,
    query: tokenHonestyQuerySchema,
    response: tokenHonestySchema,
    maxAgeSeconds: 60,
    examplePath: { id: '{endpointId}' },
  },
  ...withCsvTwin(
    {
      path: '/api/v1/endpoints/{id}/families',
      operationId: 'getEndpointFamilies',
      tag: 'Catalog',
      summary: 'Prompt cache, structured-output penalty, agent turns and cache lifetime of one endpoint',
      description:
        'The workload families of issue 25 over the window, one row per figure: TTFT cold and warm, warm ÷ cold, cached tokens and hit share (prompt cache, decision 260); the structured-output speed penalty with its interval (decision 261); per agent turn TTFT, TPS/user, cached tokens and hit share (decision 267); the hit share per cache-lifetime gap and the longest gap still hit (decision 268). Every value is read from the endpoint’s leaderboard entry of the family’s workload, so it equals the board’s. CSV: the same rows.',
      pathParams: endpointIdPathSchema,
      query: familiesQuerySchema,
      response: familiesResponseSchema,
      csv: true,
      maxAgeSeconds: 60,
      examplePath: { id: '{endpointId}' },
    },
    {
      summary: 'The workload families’ figures of one endpoint as CSV',
      description:
        'The rows of /api/v1/endpoints/{id}/families as CSV, columns the JSON fields (family, figure, workload, turn, gapMinutes, value, low, high, n, unit).',
    },
  ),
  ...withCsvTwin(
    {
      path: '/api/v1/endpoints/{id}/measurements',
      operationId: 'listEndpointMeasurements',
      tag: 'Measurements',
      summary: 'Raw measurements (the evidence)',
      description:
        'An endpoint’s measurements, newest first ((measuredAt, id) descending, keyset-paginated: pass nextCursor as cursor), filtered by workload, time (since ≤ measuredAt ≤ until) and outcome. Each carries its workload slug, endpoint id, rankable and notRankableReasons; the leaderboard median of a window is the type-7 median of outputTokensPerSecond over the rankable ones. timeline=1 adds decoded timelines (never in CSV). CSV: same columns as the JSON fields (dotted paths); the next page’s cursor is in the X-Next-Cursor header and a Link rel=next.',
      pathParams: endpointIdPathSchema,
      query: measurementsQuerySchema,
      response: measurementsResponseSchema,
      csv: true,
      maxAgeSeconds: 10,
      examplePath: { id: '{endpointId}' },
      exampleQuery: { limit: '5', workload: 'prose-1k' },
    },
    {
      summary: 'Raw measurements as CSV',
      description: 'A measurements page as CSV: one line per measurement, columns named like the JSON fields; next page in X-Next-Cursor / Link rel=next.',
      exampleQuery: { limit: '5' },
    },
  ),
  {
    path: '/api/v1/measurements/{id}',
    operationId: 'getMeasurement',
    tag: 'Measurements',
    summary: 'One measurement with its timeline',
    description: 'One measurement of a public endpoint with its decoded timeline (every content-bearing event: ms since request start, tokens, channel).',
    pathParams: measurementIdPathSchema,
    query: emptyQuerySchema,
    response: measurementDetailResponseSchema,
    maxAgeSeconds: 3600,
    examplePath: { id: '{measurementId}' },
  },
  ...withCsvTwin(
    {
      path: '/api/v1/endpoints/{id}/history',
      operationId: 'getEndpointHistory',
      tag: 'History',
      summary: 'Endpoint history (hourly or daily rollups)',
      description:
        'Hourly or daily buckets (count, successes, P5–P95 of output speed, TTFT, TTFAT, E2E, error kinds) from rollups, and change points of the daily median output speed, e.g. "+38% on 2025-06-02".',
      pathParams: endpointIdPathSchema,
      query: historyQuerySchema,
      response: endpointHistoryResponseSchema,
      csv: true,
      maxAgeSeconds: 60,
      examplePath: { id: '{endpointId}' },
      exampleQuery: { granularity: 'day', window: '30d' },
    },
    {
      summary: 'Endpoint history as CSV',
      description:
        'The history series as CSV: one line per bucket, columns the JSON dotted paths (outputTokensPerSecond.p50, errorKinds.timeout, …) then endpointId, workload, window, from, to.',
      exampleQuery: { granularity: 'hour', window: '7d' },
    },
  ),
  {
    path: '/api/v1/endpoints/{id}/revisions',
    operationId: 'listEndpointRevisions',
    tag: 'Catalog',
    summary: 'Disclosure revisions of one endpoint',
    description:
      'The dated revisions of an endpoint’s declared metadata (model and API model id, hardware, GPUs, engine, precision, speculative decoding, tier, region, system, context window), newest first, with who changed it (catalog, submission, owner edit, admin) and which fields. Every measurement names the revision in force when it was stored (Measurement.disclosureRevisionId); a change point of the history names the revision change near it (decision 178).',
    pathParams: endpointIdPathSchema,
    query: emptyQuerySchema,
    response: disclosureRevisionsResponseSchema,
    maxAgeSeconds: 60,
    examplePath: { id: '{endpointId}' },
  },
  ...withCsvTwin(
    {
      path: '/api/v1/history',
      operationId: 'getModelHistory',
      tag: 'History',
      summary: 'Model history: daily medians per endpoint',
      description: 'For every listed endpoint of a model: daily median output speed with P25–P75 and its change points, from daily rollups.',
      query: modelHistoryQuerySchema,
      response: modelHistoryResponseSchema,
      csv: true,
      maxAgeSeconds: 300,
      exampleQuery: { model: 'llama-4-maverick', workload: 'prose-1k', window: '90d' },
    },
    {
      summary: 'Model history as CSV',
      description:
        'One line per endpoint and day: endpoint.id, endpoint.slug, day, count, successes, samples, median, p25, p75, changePoint, then model, workload, window, from, to.',
      exampleQuery: { model: 'llama-4-maverick', window: '30d' },
    },
  ),
  ...withCsvTwin(
    {
      path: '/api/v1/claims',
      operationId: 'listClaims',
      tag: 'Claims and datasets',
      summary: 'Published claims (not measurements)',
      description: 'Figures published by vendors or the press, with source, date and bound; shown apart from our measurements.',
      query: claimsQuerySchema,
      response: claimsResponseSchema,
      csv: true,
      maxAgeSeconds: 300,
    },
    {
      summary: 'Claims as CSV',
      description: 'Claims as CSV.',
    },
  ),
  ...withCsvTwin(
    {
      path: '/api/v1/datasets',
      operationId: 'listDatasets',
      tag: 'Claims and datasets',
      summary: 'Imported third-party datasets',
      description: 'Imported datasets (e.g. the LLMPerf leaderboard raw data) with provenance and licence.',
      query: emptyQuerySchema,
      response: datasetsResponseSchema,
      csv: true,
      maxAgeSeconds: 300,
    },
    {
      summary: 'Datasets as CSV',
      description: 'Datasets as CSV.',
    },
  ),
  {
    path: '/api/v1/datasets/{slug}',
    operationId: 'getDataset',
    tag: 'Claims and datasets',
    summary: 'One dataset with series summaries',
    description: 'Provenance and each series’ summary statistics (units in field names).',
    pathParams: datasetSlugPathSchema,
    query: emptyQuerySchema,
    response: datasetDetailResponseSchema,
    maxAgeSeconds: 300,
    examplePath: { slug: '{datasetSlug}' },
  },
  {
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document',
    description: 'Generated from the same zod schemas the routes validate with.',
    query: emptyQuerySchema,
    response: z.record(z.string(), z.unknown()).meta({ id: 'OpenApiDocument' }),
    maxAgeSeconds: 3600,
  },
  {
    path: '/api/v1/ping',
    operationId: 'ping',
    tag: 'Meta',
    summary: 'Liveness (static JSON)',
    description: 'A constant answer without database access.',
    query: emptyQuerySchema,
    response: pingResponseSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/dumps',
    operationId: 'listDumps',
    tag: 'Dumps',
    summary: 'Weekly public data dumps',
    description:
      'Every weekly dump: all measurements of public endpoints with from ≤ measuredAt < until (Monday 00:00 UTC to Monday), as gzip CSV with the columns of the measurements CSV, with its SHA-256 and a manifest. Written every Monday at 00:05 UTC and at the first start.',
    query: emptyQuerySchema,
    response: dumpsResponseSchema,
    maxAgeSeconds: 300,
  },
  {
    path: '/api/v1/dumps/{id}/manifest.json',
    operationId: 'getDumpManifest',
    tag: 'Dumps',
    summary: 'A dump’s manifest',
    description:
      'Period, row count, SHA-256 of the gzip file and of the CSV text, row order, which rows enter published figures, and every column with its unit and source.',
    pathParams: z.object({ id: idParamSchema.meta({ description: 'Dump id (see /api/v1/dumps).', example: 1 }) }),
    query: emptyQuerySchema,
    response: dumpManifestSchema,
    maxAgeSeconds: 86_400,
    examplePath: { id: '{dumpId}' },
  },
  {
    path: '/api/v1/dumps/{id}/measurements.csv.gz',
    operationId: 'getDumpFile',
    tag: 'Dumps',
    summary: 'A dump’s gzip CSV',
    description: 'The file, streamed. Its SHA-256 is in ETag, Repr-Digest (RFC 9530) and X-Checksum-SHA256, and in the list and manifest. Immutable.',
    pathParams: z.object({ id: idParamSchema.meta({ description: 'Dump id (see /api/v1/dumps).', example: 1 }) }),
    query: emptyQuerySchema,
    response: null,
    binary: 'application/gzip',
    maxAgeSeconds: 31_536_000,
    examplePath: { id: '{dumpId}' },
  },
  ...withCsvTwin(
    {
      path: '/api/v1/disputes',
      operationId: 'listDisputes',
      tag: 'Disputes',
      summary: 'Disputes and their outcomes',
      description:
        'Every dispute of a public endpoint’s figures (a measurement, a window or a change point), with its reason, evidence, status (open, accepted, rejected, annotated) and whether the covered measurements are excluded from every figure (reason disputed; never deleted or changed). Newest first, at most 500.',
      query: disputesQuerySchema,
      response: disputesResponseSchema,
      csv: true,
      maxAgeSeconds: 30,
    },
    {
      summary: 'Disputes as CSV',
      description: 'The disputes as CSV, one line per dispute, columns the JSON fields (links `;`-joined).',
    },
  ),
  {
    path: '/api/v1/annotations',
    operationId: 'listAnnotations',
    tag: 'Disputes',
    summary: 'Annotations of periods',
    description:
      'Notes on periods of the figures, of one endpoint or of every endpoint (e.g. an outage of a worker region), as shown on the history charts; the outcome of each accepted or annotated dispute is one. Oldest first, at most 500.',
    query: annotationsQuerySchema,
    response: annotationsResponseSchema,
    maxAgeSeconds: 30,
  },
  {
    path: '/api/v1/endpoints/{id}/disputes',
    method: 'post',
    auth: 'user',
    body: openDisputeBodySchema,
    successStatus: 201,
    operationId: 'openDispute',
    tag: 'Disputes',
    summary: 'Dispute an own endpoint’s figures',
    description:
      'The endpoint’s owner (or an admin) disputes a measurement, a window (at most 31 days) or a change point with a reason and evidence. Public at once; at most 5 open per endpoint and 20 per account.',
    pathParams: endpointIdPathSchema,
    response: disputeResultSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/disputes/{id}/resolution',
    method: 'post',
    auth: 'admin',
    body: resolveDisputeBodySchema,
    operationId: 'resolveDispute',
    tag: 'Disputes',
    summary: 'Decide a dispute (admins)',
    description:
      'Accept (optionally excluding the covered measurements from every figure), reject or annotate an open dispute; accepted and annotated ones add an annotation of the period. Logged in the audit table.',
    pathParams: z.object({ id: idParamSchema.meta({ description: 'Dispute id.', example: 1 }) }),
    response: disputeResultSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/annotations',
    method: 'post',
    auth: 'admin',
    body: createAnnotationBodySchema,
    successStatus: 201,
    operationId: 'createAnnotation',
    tag: 'Disputes',
    summary: 'Annotate a period (admins)',
    description: 'A note on a period (at most 31 days) of one endpoint or of all, shown on history charts and in the API.',
    response: annotationResultSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/rules',
    operationId: 'getRules',
    tag: 'Meta',
    summary: 'Rules for listed endpoints',
    description:
      'What a listed endpoint must be (the one paying customers get, terms allowing measurement, declared metadata and price, proof of a provider’s name), what is forbidden (benchmark detection, cached answers, junk output, clock padding, bursts, inflated counts), sweeps, what happens when a rule is broken, and disputes; with version and date. Human page: /rules.',
    query: emptyQuerySchema,
    response: rulesResponseSchema,
    maxAgeSeconds: 3600,
  },
  {
    path: '/api/v1/signing-keys',
    operationId: 'listSigningKeys',
    tag: 'Meta',
    summary: 'Public keys of the signatures (also /.well-known/tokenpace-keys.json)',
    description:
      'Every Ed25519 key this deployment has signed with (decision 230), the current one last with validUntil null. Leaderboard answers, snapshots and dump manifests carry an embedded signature (last member `signature`) and a Tokenpace-Signature header (keyid, alg, sig) over the exact bytes sent; a dump file’s header signs its raw SHA-256 digest (covers="sha256"). Verify with `tokenpace verify <url|file>` or `openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in body -sigfile sig`.',
    query: emptyQuerySchema,
    response: signingKeysResponseSchema,
    maxAgeSeconds: 300,
  },
  {
    path: '/api/v1/endpoints',
    method: 'post',
    auth: 'user',
    body: createEndpointBodySchema,
    successStatus: 201,
    operationId: 'submitEndpoint',
    tag: 'Submissions',
    summary: 'Submit an endpoint',
    description:
      'A provider submits an endpoint (signed-in session or personal API token). It waits for review as pending; a verification probe runs at once and its result is returned. Rate limited per account.',
    response: submissionResultSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/endpoints/{id}',
    method: 'patch',
    auth: 'user',
    body: updateEndpointBodySchema,
    operationId: 'updateEndpoint',
    tag: 'Submissions',
    summary: 'Edit, pause or resume an own endpoint',
    description:
      'The submitter edits declared metadata, pauses or resumes; a change of baseUrl, apiKey, protocol or apiModelId sends the endpoint back to review and re-runs verification.',
    pathParams: endpointIdPathSchema,
    response: submissionResultSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/endpoints/{id}',
    method: 'delete',
    auth: 'user',
    operationId: 'deleteEndpoint',
    tag: 'Submissions',
    summary: 'Withdraw an own endpoint',
    description: 'Soft delete: no longer listed or probed; its measurements stay as evidence.',
    pathParams: endpointIdPathSchema,
    response: deletedEndpointSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/endpoints/{id}/review',
    method: 'post',
    auth: 'admin',
    body: reviewEndpointBodySchema,
    operationId: 'reviewEndpoint',
    tag: 'Submissions',
    summary: 'Approve or reject a pending endpoint (admins)',
    description: 'Approve (→ active, probed on schedule) or reject with a reason; logged in the audit table.',
    pathParams: endpointIdPathSchema,
    response: reviewResultSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/submissions',
    auth: 'user',
    operationId: 'listOwnSubmissions',
    tag: 'Submissions',
    summary: 'The signed-in provider’s endpoints',
    description: 'Status, latest verification, and the last 24 h of measurements with failures by kind, for every endpoint the account submitted.',
    response: ownedEndpointsResponseSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/tokens',
    auth: 'user',
    operationId: 'listApiTokens',
    tag: 'Submissions',
    summary: 'Personal API tokens',
    description: 'The account’s tokens: name, prefix and dates (never the token or its hash).',
    response: apiTokensResponseSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/tokens',
    method: 'post',
    auth: 'session',
    body: createTokenBodySchema,
    successStatus: 201,
    operationId: 'createApiToken',
    tag: 'Submissions',
    summary: 'Create a personal API token',
    description: 'From a signed-in browser session only (not with another token); the token is in the answer once. At most 20 live tokens.',
    response: createdApiTokenSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/tokens/{id}',
    method: 'delete',
    auth: 'user',
    operationId: 'revokeApiToken',
    tag: 'Submissions',
    summary: 'Revoke a personal API token',
    description: 'Revokes one of the account’s own live tokens; 404 when it is not theirs or already revoked.',
    pathParams: z.object({ id: idParamSchema.meta({ description: 'Token id (see GET /api/v1/tokens).', example: 1 }) }),
    response: revokedApiTokenSchema,
    maxAgeSeconds: 0,
  },
  ...SWEEP_API_OPERATIONS,
];

/** The public read operations (GET, no sign-in): what the contract test calls anonymously. */
export const PUBLIC_READ_OPERATIONS = API_OPERATIONS.filter((op) => (op.method ?? 'get') === 'get' && !op.auth);

const errorResponse = (description: string, headers?: Record<string, { description: string; schema: { type: 'integer' | 'string' } }>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: apiErrorSchema } },
});

/** Operations that never touch the database, so never answer 503 unavailable. */
const NO_DATABASE_OPERATIONS = new Set(['ping', 'getOpenApiDocument']);

/** Query parameters naming catalog entries: an unknown one answers 404 naming it. */
const CATALOG_PARAMS = ['model', 'workload', 'provider'];

function operationObject(op: ApiOperation): ZodOpenApiOperationObject {
  const write = (op.method ?? 'get') !== 'get' || op.auth !== undefined;
  const cacheHeaders = write
    ? undefined
    : {
        ETag: { description: 'Entity tag of the body; send it back in If-None-Match to get 304.', schema: { type: 'string' as const } },
        'Cache-Control': { description: `public, max-age=${op.maxAgeSeconds} (snapshots and dump files: immutable)`, schema: { type: 'string' as const } },
        'Access-Control-Allow-Origin': { description: 'Always * (CORS open for reads).', schema: { type: 'string' as const } },
      };
  // One media type per operation (issue #23 item 6): a JSON operation answers JSON only, so a typed
  // client (openapi-fetch) types `data` as that JSON; CSV is its own operation on the `.csv` path.
  // The JSON routes still honour Accept: text/csv, as the description says.
  const content: Record<string, { schema: z.ZodType }> = {};
  if (op.response) content['application/json'] = { schema: op.response };
  else if (op.csv)
    content['text/csv'] = {
      schema: z.string().meta({
        description: 'RFC 4180 CSV with a header row (UTF-8); each column is the JSON field’s dotted path (the JSON schema gives its unit and source).',
      }),
    };
  const csvTwin = op.response && op.csv ? API_OPERATIONS.find((o) => o.path === `${op.path}.csv`) : undefined;
  if (op.binary) content[op.binary] = { schema: z.string().meta({ description: 'The file’s bytes.', format: 'binary' }) };
  const catalog404 = Object.keys(op.query?.shape ?? {}).some((k) => CATALOG_PARAMS.includes(k));
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: csvTwin ? `${op.description} As CSV: ${csvTwin.path} (operation ${csvTwin.operationId}), or this path with Accept: text/csv.` : op.description,
    // Public operations need no credentials: an explicit empty requirement (OpenAPI 3.1 §4.8.10).
    security: op.auth ? (op.auth === 'session' ? [{ session: [] }] : [{ session: [] }, { bearer: [] }]) : [],
    requestParams: { ...(op.query ? { query: op.query } : {}), ...(op.pathParams ? { path: op.pathParams } : {}) },
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    responses: {
      [String(op.successStatus ?? 200)]: {
        description: op.successStatus === 201 ? 'Created' : 'OK',
        ...(cacheHeaders ? { headers: cacheHeaders } : {}),
        content,
      },
      ...(write ? {} : { '304': { description: 'Not modified (If-None-Match matched the ETag).' } }),
      '400': errorResponse(
        op.body
          ? 'The body or a parameter is invalid; error.field names the first field, error.fields every one.'
          : 'A parameter is invalid or unknown; error.field names it.',
      ),
      ...(op.auth
        ? {
            '401': errorResponse('Not signed in and no valid API token.'),
            '403': errorResponse(
              op.auth === 'admin'
                ? 'Not an admin, or a cross-site request.'
                : 'Not allowed (another account’s endpoint, a cross-site request, or a token where a session is needed).',
            ),
          }
        : {}),
      ...(op.pathParams || catalog404
        ? {
            '404': errorResponse(
              catalog404
                ? 'An unknown model, workload or provider (error.field names it), or no such resource.'
                : 'No such resource; error.field names the parameter.',
            ),
          }
        : {}),
      ...(op.method === 'post' || op.method === 'patch'
        ? { '409': errorResponse('The endpoint is not in a state that allows this, or a limit is reached.') }
        : {}),
      '429': errorResponse('Too many requests from this client address; wait Retry-After seconds.', {
        'Retry-After': { description: 'Seconds until the next request is allowed.', schema: { type: 'integer' } },
      }),
      '500': errorResponse('Unexpected server error (details only in the server log).'),
      ...(NO_DATABASE_OPERATIONS.has(op.operationId)
        ? {}
        : {
            '503': errorResponse('The database is unreachable (error.code "unavailable"); retry after Retry-After seconds.', {
              'Retry-After': { description: 'Seconds to wait before retrying (5).', schema: { type: 'integer' } },
            }),
          }),
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
  for (const op of API_OPERATIONS) paths[op.path] = { ...paths[op.path], [op.method ?? 'get']: operationObject(op) };
  cached = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Tokenpace public API',
      version: '1.0.0',
      description:
        'LLM inference speed per user (TPS/user), measured continuously, with the evidence kept. Public reads are anonymous, JSON by default, CSV for every list (`.csv` suffix or `Accept: text/csv`; a CSV column is the JSON field’s dotted path, e.g. outputTokensPerSecond.p50), CORS open; windowed routes take `window` (72h, 7d) and `at` (ISO 8601). Raw measurements and weekly dumps let anyone recompute every published figure. Write routes (Submissions) need a signed-in session or a personal API token. Errors always have the shape `{ "error": { "code", "message", "field"? } }`; an unknown model, workload, provider, endpoint or route is a 404 in that shape. Reads carry ETag and Cache-Control. Clients are rate limited per IP address: a refused request answers 429 with Retry-After (seconds). Metric definitions: /methodology.',
      license: { name: 'Data: CC BY 4.0 (cite the snapshot)', identifier: 'CC-BY-4.0' },
    },
    servers: [{ url: '/', description: 'This server' }],
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'tokenpace.session_token',
          description: 'Browser session after sign-in (/signin); __Secure- prefixed over HTTPS.',
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'Personal API token (POST /api/v1/tokens), sent as Authorization: Bearer <token>.' },
      },
    },
    tags: [
      { name: 'Leaderboard', description: 'Ranked endpoints and citable snapshots.' },
      { name: 'Catalog', description: 'Models, workloads, providers, endpoints.' },
      { name: 'Measurements', description: 'Raw evidence: one row per probe, with its timeline.' },
      { name: 'History', description: 'Hourly and daily rollups with change points.' },
      { name: 'Dumps', description: 'Weekly public data dumps of every measurement, with checksums.' },
      { name: 'Claims and datasets', description: 'Published claims and imported third-party data, kept apart from our measurements.' },
      {
        name: 'Disputes',
        description:
          'Disputes of figures by endpoint owners, their outcomes, and annotations of periods (decision 232). Reads are public; opening a dispute needs the owner’s session or token, deciding one and annotating need an admin.',
      },
      {
        name: 'Submissions',
        description:
          'Write routes for providers (submit, edit, withdraw), their API tokens, and admin review. Signed-in session cookie or Authorization: Bearer <personal API token>.',
      },
      { name: 'Meta', description: 'Service.' },
    ],
    paths,
  });
  return cached;
}
