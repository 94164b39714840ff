/**
 * Response schemas of the public API (/api/v1): the OpenAPI document's component schemas are
 * generated from these (lib/api/openapi.ts), route handlers type their payloads with them, and the
 * contract test (app/api/v1/openapi.test.ts) validates real answers against the document.
 * Units are in field names (…Ms milliseconds, …PerSecond tokens/s) and repeated in descriptions.
 */
import { z } from 'zod';

const isoTime = z.string().meta({ format: 'date-time', description: 'ISO 8601 instant (UTC).', example: '2026-11-28T12:00:00.000Z' });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ description: 'UTC calendar day.', example: '2026-11-28' });

/** Uniform error body of every non-2xx answer. */
export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'internal']).meta({ description: 'Fixed machine-readable code.' }),
      message: z.string().meta({ description: 'Human-readable explanation, naming the field when one is at fault.', example: 'window: must look like 72h or 7d' }),
      field: z.string().optional().meta({ description: 'The offending parameter or field, when one is at fault.', example: 'window' }),
      fields: z.array(z.object({ field: z.string(), message: z.string() })).optional().meta({ description: 'Every offending field of a rejected request body.' }),
    }),
  })
  .meta({ id: 'Error', description: 'The one error shape of the API.' });

/** P5/P25/P50/P75/P95 (type-7 percentiles) in the unit of the metric, or null without samples. */
export const percentilesSchema = z
  .object({ p5: z.number(), p25: z.number(), p50: z.number(), p75: z.number(), p95: z.number() })
  .nullable()
  .meta({ id: 'Percentiles', description: 'P5, P25, P50 (median), P75 and P95 in the unit of the metric; null when there are no successful valid samples.' });

const interval = z.object({ low: z.number(), high: z.number() });

/** The endpoint as shown in a leaderboard entry. */
export const leaderboardEndpointSchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    provider: z.string(),
    providerSlug: z.string(),
    model: z.string(),
    kind: z.enum(['provider', 'calibration']).meta({ description: '"calibration" marks Tokenpace’s own reference servers.' }),
    status: z.string(),
    hardware: z.string().nullable(),
    engine: z.string().nullable(),
    precision: z.string().nullable(),
    speculativeDecoding: z.string().nullable(),
    deploymentKind: z.string().nullable(),
    region: z.string().nullable().meta({ description: 'Declared serving region of the endpoint (not the probe region).' }),
    calibrationTps: z.number().nullable().meta({ description: 'Calibration endpoints: configured output speed, tokens/s.' }),
    calibrationTtftMs: z.number().nullable().meta({ description: 'Calibration endpoints: configured TTFT, ms.' }),
  })
  .meta({ id: 'LeaderboardEndpoint' });

/** One ranked (or unranked) leaderboard entry. */
export const leaderboardEntrySchema = z
  .object({
    endpoint: leaderboardEndpointSchema,
    rank: z.number().int().nullable().meta({ description: 'Competition rank of the entry’s tie band (1, 1, 3); null when unranked (< 3 samples).' }),
    band: z.number().int().nullable().meta({ description: 'Tie band, 1 = best; entries in one band are statistically tied.' }),
    tiedWith: z.array(z.number().int()).meta({ description: 'Endpoint ids sharing this entry’s band.' }),
    n: z.number().int().meta({ description: 'Probes in the window, successes and failures.' }),
    successes: z.number().int(),
    successRate: z.number().nullable().meta({ description: 'successes ÷ n (fraction); null when n = 0.' }),
    successRateInterval: interval.nullable().meta({ description: 'Wilson 95 % score interval of the success rate.' }),
    samples: z.number().int().meta({ description: 'Successful, valid probes behind the output-speed percentiles.' }),
    outputTokensPerSecond: percentilesSchema.meta({ description: 'Output speed per user (TPS/user), tokens/s.' }),
    outputTokensPerSecondMedianCi: interval.nullable().meta({ description: '95 % confidence interval of the median output speed, tokens/s (distribution-free, order statistics).' }),
    ttftMs: percentilesSchema.meta({ description: 'Time to first token, ms.' }),
    ttfatMs: percentilesSchema.meta({ description: 'Time to first answer token (after reasoning), ms.' }),
    e2eMs: percentilesSchema.meta({ description: 'End-to-end latency, ms.' }),
    errorKinds: z.record(z.string(), z.number().int()).meta({ description: 'Failures by kind (timeout, rate_limited, http_error, …).' }),
    lastMeasuredAt: isoTime.nullable(),
  })
  .meta({ id: 'LeaderboardEntry' });

/** GET /api/v1/leaderboard and GET /api/v1/snapshots/{id}. */
export const leaderboardAnswerSchema = z
  .object({
    snapshotId: z.string().meta({ description: 'Cite this: GET /api/v1/snapshots/{snapshotId} returns these exact bytes forever; human page /s/{snapshotId}.', example: 'yJ3p9kq0Xb1cVtP2mWnE4A' }),
    asOf: isoTime.meta({ description: 'End of the window (the board as of this instant).' }),
    window: z.string().meta({ example: '72h' }),
    windowHours: z.number().int(),
    windowStart: isoTime.meta({ description: 'First instant covered: the as-of hour minus windowHours.' }),
    model: z.string(),
    workload: z.string(),
    region: z.string().nullable(),
    basis: z.enum(['reported', 'o200k']),
    metric: z.literal('outputTokensPerSecond'),
    units: z.record(z.string(), z.string()),
    statistics: z
      .object({
        percentiles: z.string(),
        percentileRelativeAccuracy: z.number().meta({ description: 'Every percentile is within this fraction of the exact type-7 percentile (0.01 = 1 %).' }),
        medianCi: z.string(),
        medianCiConfidence: z.number(),
        successRateInterval: z.string(),
        minRankedSamples: z.number().int(),
        ties: z.string(),
      })
      .meta({ description: 'How the figures were computed (see /methodology).' }),
    entries: z.array(leaderboardEntrySchema),
  })
  .meta({ id: 'LeaderboardAnswer' });

export const modelSchema = z
  .object({ id: z.number().int(), slug: z.string(), name: z.string(), family: z.string().nullable(), description: z.string().nullable(), endpointCount: z.number().int() })
  .meta({ id: 'Model' });
export const workloadSchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    category: z.string(),
    inputTokensTarget: z.number().int().meta({ description: 'Target prompt length, tokens.' }),
    maxOutputTokens: z.number().int().meta({ description: 'Output budget, tokens.' }),
    concurrency: z.number().int(),
    scheduled: z.boolean().meta({ description: 'Probed every slot (true) or on demand.' }),
  })
  .meta({ id: 'Workload' });
export const modelsResponseSchema = z.object({ items: z.array(modelSchema), workloads: z.array(workloadSchema) }).meta({ id: 'ModelList' });

export const providerSchema = z
  .object({ id: z.number().int(), slug: z.string(), name: z.string(), kind: z.enum(['provider', 'calibration']), websiteUrl: z.string().nullable(), endpointCount: z.number().int() })
  .meta({ id: 'Provider' });
export const providersResponseSchema = z.object({ items: z.array(providerSchema) }).meta({ id: 'ProviderList' });

export const endpointSchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    providerSlug: z.string(),
    provider: z.string(),
    providerKind: z.enum(['provider', 'calibration']),
    modelSlug: z.string(),
    model: z.string(),
    protocol: z.string().meta({ description: 'openai-chat, anthropic-messages, bedrock-converse-stream or gemini-stream.' }),
    baseUrl: z.string(),
    apiModelId: z.string(),
    apiKeyEnv: z.string().nullable().meta({ description: 'Name of the environment variable holding the key of a seeded endpoint (never the key).' }),
    hardware: z.string().nullable(),
    engine: z.string().nullable(),
    precision: z.string().nullable(),
    speculativeDecoding: z.string().nullable(),
    draftLength: z.number().int().nullable(),
    deploymentKind: z.string().nullable(),
    region: z.string().nullable(),
    isCalibration: z.boolean(),
    calibrationTps: z.number().nullable(),
    calibrationTtftMs: z.number().nullable(),
    status: z.string(),
    createdAt: isoTime,
  })
  .meta({ id: 'Endpoint' });
export const endpointsResponseSchema = z.object({ items: z.array(endpointSchema) }).meta({ id: 'EndpointList' });

export const timelineEntrySchema = z
  .object({
    atMs: z.number().meta({ description: 'ms since request start when the event arrived (0.1 ms resolution).' }),
    tokens: z.number().int().meta({ description: 'o200k_base tokens the event carried.' }),
    channel: z.enum(['answer', 'reasoning', 'tool']),
  })
  .meta({ id: 'TimelineEntry' });

export const measurementSchema = z
  .object({
    id: z.number().int(),
    endpointId: z.number().int(),
    workloadId: z.number().int(),
    measuredAt: isoTime,
    workerRegion: z.string(),
    workerVersion: z.string(),
    outcome: z.enum(['success', 'error']),
    errorKind: z.string().nullable(),
    errorMessage: z.string().nullable(),
    httpStatus: z.number().int().nullable(),
    ttfbMs: z.number().nullable(),
    ttftMs: z.number().nullable(),
    ttfatMs: z.number().nullable(),
    e2eMs: z.number().nullable(),
    outputTokensReported: z.number().int().nullable(),
    outputTokensO200k: z.number().int().nullable(),
    outputTokensPerSecond: z.number().nullable(),
    outputTokensPerSecondO200k: z.number().nullable(),
    tpotMs: z.number().nullable(),
    contentChunks: z.number().int(),
    finishReason: z.string().nullable(),
    promptHash: z.string().nullable(),
    flags: z.record(z.string(), z.boolean()),
    valid: z.boolean().meta({ description: 'False when the worker’s event loop was too delayed to trust the timing (kept, not ranked).' }),
    invalidReason: z.string().nullable(),
    timeline: z.array(timelineEntrySchema).optional().meta({ description: 'Every content-bearing event; omitted with timeline=0.' }),
  })
  .meta({ id: 'Measurement' });
export const measurementsResponseSchema = z
  .object({ endpointId: z.number().int(), items: z.array(measurementSchema), nextCursor: z.number().int().nullable().meta({ description: 'Pass as cursor for the next (older) page; null at the end.' }) })
  .meta({ id: 'MeasurementPage' });

export const changePointSchema = z
  .object({
    day: day.meta({ description: 'First day of the new level.' }),
    before: z.number().meta({ description: 'Median of the daily medians before, tokens/s.' }),
    after: z.number().meta({ description: 'Median of the daily medians after, tokens/s.' }),
    relativeChange: z.number().meta({ description: '(after − before) ÷ before.' }),
    pValue: z.number().meta({ description: 'Two-sided Mann–Whitney p-value (optimistic: computed after choosing the split).' }),
    label: z.string().meta({ example: '+38% on 2025-06-02' }),
  })
  .meta({ id: 'ChangePoint', description: 'A level shift of the daily median output speed (≥ 15 % and p < 0.05, segments ≥ 3 days).' });

export const historyPointSchema = z
  .object({
    bucketStart: isoTime,
    count: z.number().int(),
    successes: z.number().int(),
    outputTokensPerSecond: percentilesSchema,
    outputTokensPerSecondO200k: percentilesSchema,
    ttftMs: percentilesSchema,
    ttfatMs: percentilesSchema,
    e2eMs: percentilesSchema,
    errorKinds: z.record(z.string(), z.number().int()),
    percentileSource: z.enum(['exact', 'sketch']).meta({ description: 'exact: the bucket’s own percentiles (one region); sketch: regions merged, each percentile within 1 %.' }),
  })
  .meta({ id: 'HistoryPoint' });
export const endpointHistoryResponseSchema = z
  .object({
    endpointId: z.number().int(),
    workload: z.string(),
    granularity: z.enum(['hour', 'day']),
    range: z.string(),
    region: z.string().nullable(),
    basis: z.enum(['reported', 'o200k']),
    from: isoTime,
    to: isoTime,
    series: z.array(historyPointSchema),
    changePoints: z.array(changePointSchema).meta({ description: 'Change points of the daily median output speed over the range (basis as requested).' }),
  })
  .meta({ id: 'EndpointHistory' });

export const modelHistoryResponseSchema = z
  .object({
    model: z.string(),
    workload: z.string(),
    range: z.string(),
    region: z.string().nullable(),
    basis: z.enum(['reported', 'o200k']),
    from: isoTime,
    to: isoTime,
    series: z.array(
      z.object({
        endpoint: z.object({ id: z.number().int(), slug: z.string(), provider: z.string(), providerSlug: z.string() }),
        days: z.array(
          z.object({
            day,
            count: z.number().int(),
            successes: z.number().int(),
            samples: z.number().int(),
            median: z.number().nullable().meta({ description: 'Daily median output speed, tokens/s.' }),
            p25: z.number().nullable(),
            p75: z.number().nullable(),
          }),
        ),
        changePoints: z.array(changePointSchema),
      }),
    ),
  })
  .meta({ id: 'ModelHistory' });

export const claimSchema = z
  .object({
    id: z.number().int(),
    subject: z.string(),
    provider: z.string(),
    providerSlug: z.string().nullable(),
    model: z.string(),
    modelSlug: z.string().nullable(),
    metric: z.string(),
    value: z.number(),
    unit: z.string(),
    bound: z.string().meta({ description: 'eq, approx, lt, le, gt or ge.' }),
    measuredBy: z.string().nullable(),
    claimDate: z.string().meta({ description: 'YYYY, YYYY-MM or YYYY-MM-DD, as precise as the source.' }),
    sourceTitle: z.string().nullable(),
    sourcePublisher: z.string().nullable(),
    sourceUrl: z.string().nullable(),
    note: z.string().nullable(),
  })
  .meta({ id: 'Claim' });
export const claimsResponseSchema = z.object({ kind: z.literal('claims'), note: z.string(), items: z.array(claimSchema) }).meta({ id: 'ClaimList' });

export const datasetSchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    title: z.string(),
    source: z.string(),
    sourceUrl: z.string().nullable(),
    sourceCommit: z.string().nullable(),
    licence: z.string(),
    collectedOn: z.string().nullable(),
    description: z.string().nullable(),
    importedAt: isoTime,
  })
  .meta({ id: 'Dataset' });
export const datasetsResponseSchema = z.object({ items: z.array(datasetSchema) }).meta({ id: 'DatasetList' });
export const datasetDetailResponseSchema = datasetSchema
  .extend({
    series: z.array(
      z.object({
        id: z.number().int(),
        slug: z.string(),
        provider: z.string(),
        model: z.string(),
        summary: z.record(z.string(), z.unknown()).meta({ description: 'Summary statistics per metric, units in the names (ttftMs, e2eMs, outputTokensPerSecond, …).' }),
      }),
    ),
  })
  .meta({ id: 'DatasetDetail' });

export const pingResponseSchema = z.object({ ok: z.literal(true), api: z.literal('v1') }).meta({ id: 'Ping' });
