/**
 * Response schemas of the public API (/api/v1): the OpenAPI document's component schemas are
 * generated from these (lib/api/openapi.ts), route handlers type their payloads with them, and the
 * contract test (app/api/v1/openapi.test.ts) validates real answers against the document.
 * Units are in field names (…Ms milliseconds, …PerSecond tokens/s) and repeated in descriptions.
 */
import { deprecatedAlias } from '@/lib/glossary/deprecated-alias';
import { FIDELITY_CHECK_KINDS } from '@/lib/fidelity/tasks';
import { annotationSchema, disputeSchema } from './dispute-schemas';
import { changePointRevisionSchema, disclosureRevisionSchema } from './disclosure-schemas';
import { z } from 'zod';
import { serviceTierSchema, tierAttainmentSchema, tierObjectiveSchema } from './service-tier-schemas';
import { endpointPricingSchema } from '@/lib/catalog/pricing';
import { ERROR_KINDS, NOT_RANKABLE_REASONS } from '@/lib/probe/types';
import { FIDELITY_RANK_MIN_PASS_RATE, NOT_RANKED_REASONS } from '@/lib/ranking/build-leaderboard';
import { PROVIDER_CLAIMS } from '@/lib/security/provider-claim';

const isoTime = z.string().meta({ format: 'date-time', description: 'ISO 8601 instant (UTC).', example: '2026-11-28T12:00:00.000Z' });
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ description: 'UTC calendar day.', example: '2026-11-28' });

/** Uniform error body of every non-2xx answer. */
export const apiErrorSchema = z
  .object({
    error: z
      .object({
        code: z
          .enum(['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'internal', 'unavailable'])
          .meta({ description: 'Fixed machine-readable code.' }),
        message: z
          .string()
          .meta({ description: 'Human-readable explanation, naming the field when one is at fault.', example: 'window: must look like 72h or 7d' }),
        field: z.string().optional().meta({ description: 'The offending parameter or field, when one is at fault.', example: 'window' }),
        fields: z
          .array(
            z.object({
              field: z.string().meta({ description: 'The offending field (dotted path).' }),
              message: z.string().meta({ description: 'What is wrong with it.' }),
            }),
          )
          .optional()
          .meta({ description: 'Every offending field of a rejected request body.' }),
      })
      .meta({ description: 'What went wrong.' }),
  })
  .meta({ id: 'Error', description: 'The one error shape of the API.' });

/** P5/P25/P50/P75/P95 (type-7 percentiles) in the unit of the metric, or null without samples. */
export const percentilesSchema = z
  .object({
    p5: z.number().meta({ description: '5th percentile (type 7), in the unit of the metric.' }),
    p25: z.number().meta({ description: '25th percentile (type 7), in the unit of the metric.' }),
    p50: z.number().meta({ description: 'Median (type 7), in the unit of the metric.' }),
    p75: z.number().meta({ description: '75th percentile (type 7), in the unit of the metric.' }),
    p95: z.number().meta({ description: '95th percentile (type 7), in the unit of the metric.' }),
  })
  .nullable()
  .meta({ id: 'Percentiles', description: 'P5, P25, P50 (median), P75 and P95 in the unit of the metric; null when there are no successful valid samples.' });

const interval = z.object({
  low: z.number().meta({ description: 'Lower bound, in the unit of the figure.' }),
  high: z.number().meta({ description: 'Upper bound, in the unit of the figure.' }),
});

/** A share (fraction) of n with its 95 % Wilson score interval: `share` says what the share counts, `n` what n counts. */
function wilsonShareSchema(share: string, n: string) {
  return z.object({
    share: z.number().meta({ description: share }),
    n: z.number().int().meta({ description: n }),
    interval: interval.meta({ description: '95 % Wilson score interval of share.' }),
  });
}

/** A window's fidelity checks: pass rate of the judged ones with n and its 95 % Wilson interval (the entry's and the compared endpoint's). */
const windowFidelitySchema = z.object({
  passRate: z.number().meta({ description: 'Fidelity checks passed ÷ judged (fraction).' }),
  n: z.number().int().meta({ description: 'Judged fidelity checks in the window (count).' }),
  interval: interval.meta({ description: '95 % Wilson score interval of passRate.' }),
});

/** Failures by error kind (counts); kinds without failures are absent (empty cells in CSV). */
const errorKindCounts = z.partialRecord(z.enum(ERROR_KINDS), z.number().int().meta({ description: 'Failed probes of this kind, count.' })).meta({
  description:
    'Failed probes by error kind (timeout, rate_limited, http_error, stream_error, empty, cancelled, blocked, invalid_url), counts from the measurements; CSV has one column per kind (errorKinds.timeout, …).',
});

/** Measurements kept but left out of every figure (not rankable), by reason (decisions 060, 070). */
export const notRankableCountsSchema = z
  .object({
    total: z
      .number()
      .int()
      .meta({ description: 'Measurements in the window that are not rankable (left out of medians, ranks, tie bands, history and change points), count.' }),
    byReason: z
      .partialRecord(z.enum(NOT_RANKABLE_REASONS), z.number().int().meta({ description: 'Measurements carrying this reason, count.' }))
      .meta({ description: `Not-rankable reason (${NOT_RANKABLE_REASONS.join(', ')}) → measurements carrying it, count; a measurement may carry several.` }),
  })
  .meta({ id: 'NotRankableCounts', description: 'Measurements left out of the figures, from measurements.rankable / not_rankable_reasons.' });

/** The service tier an endpoint asks for and the provider's objective for it (the leaderboard's, the catalog's and the owner's view of an endpoint). */
const endpointTierFields = {
  serviceTier: serviceTierSchema
    .nullable()
    .meta({ description: 'The service tier the endpoint asks for with every probe (decision 262); null: the provider’s default tier.' }),
  tierObjective: tierObjectiveSchema
    .nullable()
    .meta({ description: 'The provider’s published objective for that tier, with its source; null when none is published.' }),
};
/** The declared context window, then the tier fields (the catalog's and the owner's view of an endpoint). */
const endpointCapacityFields = {
  contextWindowTokens: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'Declared context window, tokens; the ~100k-input workloads run only where it holds them. null when undeclared.' }),
  ...endpointTierFields,
};

/** The endpoint as shown in a leaderboard entry. */
export const leaderboardEndpointSchema = z
  .object({
    id: z.number().int().meta({ description: 'Endpoint id (GET /api/v1/endpoints/{id}).' }),
    slug: z.string().meta({ description: 'Endpoint slug.' }),
    provider: z.string().meta({ description: 'Provider name.' }),
    providerSlug: z.string().meta({ description: 'Provider slug.' }),
    model: z.string().meta({ description: 'Model name.' }),
    kind: z.enum(['provider', 'calibration']).meta({ description: '"calibration" marks Tokenpace’s own reference servers.' }),
    status: z.string().meta({ description: 'active, inactive (waiting for its API key) or paused.' }),
    hardware: z.string().nullable().meta({ description: 'Declared hardware (by the catalog or the owner), e.g. DGX B200; not verified.' }),
    engine: z.string().nullable().meta({ description: 'Declared serving engine, e.g. TensorRT-LLM; not verified.' }),
    precision: z.string().nullable().meta({ description: 'Declared precision, e.g. FP8; not verified.' }),
    speculativeDecoding: z.string().nullable().meta({ description: 'Declared speculative decoding, e.g. EAGLE-3; not verified.' }),
    deploymentKind: z.string().nullable().meta({ description: 'Declared deployment: shared, dedicated or self-hosted.' }),
    region: z.string().nullable().meta({ description: 'Declared serving region of the endpoint (not the probe region).' }),
    calibrationTps: z.number().nullable().meta({ description: 'Calibration endpoints: configured output speed, tokens/s.' }),
    calibrationTtftMs: z.number().nullable().meta({ description: 'Calibration endpoints: configured TTFT, ms.' }),
    blendedUsdPerMTokens: z.number().nullable().meta({
      description:
        'Declared blended price, USD per million tokens: (3 × input + 1 × output) ÷ 4 (the Artificial Analysis 3:1 blend); declared by the owner or an admin, never measured; null when none declared (GET /api/v1/endpoints/{id} has the prices and their source).',
    }),
    ...endpointTierFields,
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
    successes: z.number().int().meta({ description: 'Successful probes in the window (count, from the measurements).' }),
    successRate: z.number().nullable().meta({ description: 'successes ÷ n (fraction); null when n = 0.' }),
    successRateInterval: interval.nullable().meta({ description: 'Wilson 95 % score interval of the success rate.' }),
    samples: z.number().int().meta({ description: 'Rankable probes behind the output-speed percentiles.' }),
    outputTokensPerSecond: percentilesSchema.meta({ description: 'Output speed per user (TPS/user), tokens/s.' }),
    outputTokensPerSecondMedianCi: interval
      .nullable()
      .meta({ description: '95 % confidence interval of the median output speed, tokens/s (distribution-free, order statistics).' }),
    ttftMs: percentilesSchema.meta({ description: 'Time to first token, ms.' }),
    ttfatMs: percentilesSchema.meta({ description: 'Time to first answer token (after reasoning), ms.' }),
    e2eMs: percentilesSchema.meta({ description: 'End-to-end latency, ms.' }),
    errorKinds: errorKindCounts,
    lastMeasuredAt: isoTime.nullable().meta({ description: 'Latest probe of the endpoint in the window (ISO 8601); null when none.' }),
    notRankable: notRankableCountsSchema,
    excluded: deprecatedAlias(notRankableCountsSchema, 'notRankable'), // alias (decision 280)
    medianItlP50Ms: z.number().nullable().meta({
      description:
        'Inter-token latency (chunk-aware: gap between token-bearing events ÷ tokens of the later event; vLLM/AIPerf ITL): the median over the window’s rankable measurements of each one’s token-weighted ITL P50, ms/token; null without samples.',
    }),
    medianItlP95Ms: z.number().nullable().meta({
      description:
        'The median over the window’s rankable measurements of each one’s token-weighted ITL P95, ms/token: a typical request’s tail (not the P95 of the window’s ITL); null without samples.',
    }),
    // alias (decision 280)
    itlMs: deprecatedAlias(
      z
        .object({ p50: z.number().meta({ description: 'medianItlP50Ms, ms/token.' }), p95: z.number().meta({ description: 'medianItlP95Ms, ms/token.' }) })
        .nullable(),
      'medianItlP50Ms (p50) and medianItlP95Ms (p95)',
    ),
    fidelity: windowFidelitySchema.nullable().meta({
      description:
        'Fidelity checks in the window (known arithmetic, code output, JSON schema, access-code recall over the whole prompt); null when no check ran.',
    }),
    cachedInputTokens: percentilesSchema.meta({
      description:
        'Input tokens the provider reported serving from its prompt cache (measurements.cachedInputTokens), tokens, over the rankable measurements that reported a cache count; null when none did. On cache-warm-* workloads: how much of the shared prefix was reused (decision 260).',
    }),
    cacheHit: wilsonShareSchema(
      'Measurements with more than 0 cached input tokens ÷ n (fraction).',
      'Rankable measurements in the window that reported a cache count.',
    )
      .nullable()
      .meta({
        description:
          'Prompt-cache hit share of the window (decision 260): on cache-warm-* the share of warm requests the provider served from its cache, on cache-cold-* the share that should be 0; null when no measurement reported a cache count.',
      }),
    cachedInputShare: z
      .object({
        p5: z.number().meta({ description: '5th percentile (type 7), fraction.' }),
        p25: z.number().meta({ description: '25th percentile (type 7), fraction.' }),
        p50: z.number().meta({ description: 'Median (type 7), fraction.' }),
        p75: z.number().meta({ description: '75th percentile (type 7), fraction.' }),
        p95: z.number().meta({ description: '95th percentile (type 7), fraction.' }),
        n: z.number().int().meta({ description: 'Rankable measurements in the window that reported both their cached and their input tokens (input > 0).' }),
      })
      .nullable()
      .meta({
        description:
          'Cached share of the prompt (decision 291): per rankable measurement cachedInputTokens ÷ inputTokensReported (both as the provider reported them), its percentiles over the window with n; null when no measurement reported both, or every prompt had 0 input tokens. On agent-turn-* workloads the cached share per turn; on cache-warm-* the share of the prompt the shared prefix saved.',
      }),
    tierObjectiveAttainment: tierAttainmentSchema.nullable().meta({
      description:
        'Tier objective attainment of the window (decision 263): of the rankable measurements judged against the endpoint’s published tier objective (endpoint.tierObjective, as declared when each was measured), the share that met it (TPS/user above its threshold, TTFT within its threshold), with n and the 95 % Wilson interval; null when the endpoint declares no objective (never 0 %) or nothing was judged.',
    }),
    promptCache: z
      .object({
        ttftColdMs: z
          .number()
          .nullable()
          .meta({ description: 'Median TTFT of cache-cold-2k (the cold request of the prompt-cache pair) in the same window, ms; null without samples.' }),
        ttftWarmMs: z
          .number()
          .nullable()
          .meta({ description: 'Median TTFT of cache-warm-2k (the same 1,900-token prefix again at once) in the same window, ms; null without samples.' }),
        hitShare: wilsonShareSchema(
          'Warm requests with more than 0 cached input tokens ÷ n (fraction).',
          'Warm requests in the window that reported a cache count.',
        )
          .nullable()
          .meta({ description: 'Hit share of cache-warm-2k (its cacheHit); null when no warm request reported a cache count.' }),
        cachedInputShare: z
          .object({
            p50: z.number().meta({ description: 'Median cached share of the warm prompt (cachedInputTokens ÷ inputTokensReported), fraction.' }),
            n: z.number().int().meta({ description: 'Warm requests in the window that reported both counts.' }),
          })
          .nullable()
          .meta({
            description:
              'Cached share of cache-warm-2k’s prompt (its cachedInputShare median and n, decision 291); null when no warm request reported both counts.',
          }),
      })
      .nullable()
      .meta({
        description:
          'Prompt-cache board columns (decision 269): TTFT cold and warm, the warm hit share and the warm cached share of the prompt (decision 291), each the figure of the endpoint’s own entry on the cache-cold-2k / cache-warm-2k board of the same window. Present on the headline board (prose-1k) and the two prompt-cache boards; null on other boards and for endpoints without prompt-cache probes.',
      }),
    notRankedReason: z
      .enum(NOT_RANKED_REASONS)
      .nullable()
      .meta({
        description: `Why the entry is unranked: fidelity_below_bound (the 95 % Wilson upper bound of the window’s fidelity pass rate is below ${FIDELITY_RANK_MIN_PASS_RATE}: answers that are not answers are not ranked), too_few_samples (fewer than 3 rankable measurements); null when ranked.`,
      }),
  })
  .meta({ id: 'LeaderboardEntry' });

/** GET /api/v1/leaderboard and GET /api/v1/snapshots/{id}. */
/** The embedded Ed25519 signature of a signed document (decision 230): always its last member. */
export const embeddedSignatureSchema = z
  .object({
    keyId: z.string().meta({ description: 'Id of the signing key in /.well-known/tokenpace-keys.json.', example: 'q3Jx0vYb2kR8sT1m' }),
    alg: z.literal('Ed25519').meta({ description: 'Signature algorithm (RFC 8032).' }),
    sig: z.string().meta({ description: 'Base64 signature of this document’s bytes without this member: the text before `,"signature":{` followed by `}`.' }),
  })
  .meta({
    id: 'EmbeddedSignature',
    description: 'Signature of the exact bytes of this document (without this member). The same bytes as served also carry a Tokenpace-Signature header.',
  });

export const leaderboardAnswerSchema = z
  .object({
    snapshotId: z.string().meta({
      description: 'Cite this: GET /api/v1/snapshots/{snapshotId} returns these exact bytes forever; human page /s/{snapshotId}.',
      example: 'yJ3p9kq0Xb1cVtP2mWnE4A',
    }),
    asOf: isoTime.meta({ description: 'End of the window (the board as of this instant).' }),
    window: z.string().meta({ description: 'Window as requested (hours or days).', example: '72h' }),
    windowHours: z.number().int().meta({ description: 'Window length, hours.' }),
    windowStart: isoTime.meta({ description: 'First instant covered: the as-of hour minus windowHours.' }),
    model: z.string().meta({ description: 'Model slug.' }),
    workload: z.string().meta({ description: 'Workload slug.' }),
    region: z.string().nullable().meta({ description: 'Worker region filter; null = all regions.' }),
    regions: z.array(z.string()).meta({
      description:
        'Worker regions whose measurements these figures cover (sorted): the one region asked for, or every region that measured in the window when merged; [] when none did.',
      example: ['eu', 'us'],
    }),
    merged: z.boolean().meta({ description: 'True when the figures merge every worker region (no region filter); false for a one-region board.' }),
    basis: z
      .enum(['reported', 'o200k'])
      .meta({ description: 'Token basis of output speed: provider-reported completion_tokens or the o200k_base count of the received text.' }),
    metric: z.literal('outputTokensPerSecond').meta({ description: 'The ranking metric: output speed per user, tokens/s.' }),
    units: z.record(z.string(), z.string()).meta({ description: 'Unit of each figure by field name (tokens/s, ms, fraction).' }),
    statistics: z
      .object({
        percentiles: z.string().meta({ description: 'How percentiles are computed.' }),
        percentileRelativeAccuracy: z.number().meta({ description: 'Every percentile is within this fraction of the exact type-7 percentile (0.01 = 1 %).' }),
        medianCi: z.string().meta({ description: 'How the interval of the median is computed.' }),
        medianCiConfidence: z.number().meta({ description: 'Confidence level of the median interval (fraction, 0.95).' }),
        successRateInterval: z.string().meta({ description: 'How the success-rate interval is computed.' }),
        minRankedSamples: z.number().int().meta({ description: 'Fewest rankable measurements for a rank (count).' }),
        ties: z.string().meta({ description: 'How tie bands are formed.' }),
      })
      .meta({ description: 'How the figures were computed (see /methodology).' }),
    entries: z.array(leaderboardEntrySchema).meta({ description: 'Every listed endpoint of the model, ranked first, then unranked.' }),
    signature: embeddedSignatureSchema.optional(),
  })
  .meta({ id: 'LeaderboardAnswer' });

export const modelSchema = z
  .object({
    id: z.number().int().meta({ description: 'Model id.' }),
    slug: z.string().meta({ description: 'Model slug (the model= parameter).' }),
    name: z.string().meta({ description: 'Model name.' }),
    family: z.string().nullable().meta({ description: 'Model family, e.g. Llama 4.' }),
    description: z.string().nullable().meta({ description: 'Short description from the catalog.' }),
    endpointCount: z.number().int().meta({ description: 'Listed endpoints serving the model (active, inactive, paused), count.' }),
  })
  .meta({ id: 'Model' });
export const workloadSchema = z
  .object({
    id: z.number().int().meta({ description: 'Workload id.' }),
    slug: z.string().meta({ description: 'Workload slug (the workload= parameter).' }),
    name: z.string().meta({ description: 'Workload name.' }),
    category: z.string().meta({ description: 'Prompt category: prose, code, math, json, …' }),
    inputTokensTarget: z.number().int().meta({ description: 'Target prompt length, tokens.' }),
    maxOutputTokens: z.number().int().meta({ description: 'Output budget, tokens.' }),
    concurrency: z.number().int().meta({ description: 'Concurrent streams per probe (1 = one user).' }),
    scheduled: z.boolean().meta({ description: 'Probed every slot (true) or on demand.' }),
  })
  .meta({ id: 'Workload' });
export const modelsResponseSchema = z
  .object({
    items: z.array(modelSchema).meta({ description: 'Listed models, by name.' }),
    workloads: z.array(workloadSchema).meta({ description: 'Workloads, scheduled ones first.' }),
  })
  .meta({ id: 'ModelList' });

export const providerSchema = z
  .object({
    id: z.number().int().meta({ description: 'Provider id.' }),
    slug: z.string().meta({ description: 'Provider slug (the provider= parameter).' }),
    name: z.string().meta({ description: 'Provider name.' }),
    kind: z.enum(['provider', 'calibration']).meta({ description: '"calibration" marks Tokenpace’s own reference servers.' }),
    websiteUrl: z.string().nullable().meta({ description: 'Provider website.' }),
    endpointCount: z.number().int().meta({ description: 'Listed endpoints of the provider (active, inactive, paused), count.' }),
  })
  .meta({ id: 'Provider' });
export const providersResponseSchema = z
  .object({ items: z.array(providerSchema).meta({ description: 'Listed providers, by name.' }) })
  .meta({ id: 'ProviderList' });

/** Names of an endpoint, its provider and model (every endpoint schema starts with these). */
const endpointNameFields = {
  id: z.number().int().meta({ description: 'Endpoint id.' }),
  slug: z.string().meta({ description: 'Endpoint slug.' }),
  providerSlug: z.string().meta({ description: 'Provider slug.' }),
  provider: z.string().meta({ description: 'Provider name.' }),
  modelSlug: z.string().meta({ description: 'Model slug.' }),
  model: z.string().meta({ description: 'Model name.' }),
};
/** What the probe calls. */
const endpointTargetFields = {
  protocol: z.string().meta({ description: 'openai-chat, openai-responses, anthropic-messages, bedrock-converse-stream or gemini-stream.' }),
  baseUrl: z.string().meta({ description: 'Base URL the probe calls.' }),
  apiModelId: z.string().meta({ description: 'Model id sent to the provider’s API.' }),
};
/** Metadata declared by the catalog or the owner (not verified by probing). */
const declaredEndpointFields = {
  hardware: z.string().nullable().meta({ description: 'Declared hardware, e.g. DGX B200; not verified.' }),
  engine: z.string().nullable().meta({ description: 'Declared serving engine, e.g. TensorRT-LLM; not verified.' }),
  precision: z.string().nullable().meta({ description: 'Declared precision, e.g. FP8; not verified.' }),
  speculativeDecoding: z.string().nullable().meta({ description: 'Declared speculative decoding, e.g. EAGLE-3; not verified.' }),
  draftLength: z.number().int().nullable().meta({ description: 'Declared draft length of speculative decoding, tokens.' }),
  deploymentKind: z.string().nullable().meta({ description: 'Declared deployment: shared, dedicated or self-hosted.' }),
  region: z.string().nullable().meta({ description: 'Declared serving region (not the probe region).' }),
};

export const endpointSchema = z
  .object({
    ...endpointNameFields,
    providerKind: z.enum(['provider', 'calibration']).meta({ description: '"calibration" marks Tokenpace’s own reference servers.' }),
    ...endpointTargetFields,
    apiKeyEnv: z.string().nullable().meta({ description: 'Name of the environment variable holding the key of a seeded endpoint (never the key).' }),
    ...declaredEndpointFields,
    isCalibration: z.boolean().meta({ description: 'True for Tokenpace’s own reference servers.' }),
    calibrationTps: z.number().nullable().meta({ description: 'Calibration endpoints: configured output speed, tokens/s.' }),
    calibrationTtftMs: z.number().nullable().meta({ description: 'Calibration endpoints: configured TTFT, ms.' }),
    status: z.string().meta({ description: 'active, inactive (waiting for its API key) or paused.' }),
    createdAt: isoTime.meta({ description: 'When the endpoint entered the catalog.' }),
    pricing: endpointPricingSchema.nullable().meta({
      description:
        'Prices as DECLARED by the endpoint’s owner or an admin, with the source URL and the date they were read (USD per million tokens); never measured. null when none declared.',
    }),
    blendedUsdPerMTokens: z.number().nullable().meta({
      description:
        'Blended price, USD per million tokens: (3 × input + 1 × output) ÷ 4, the 3:1 input:output blend Artificial Analysis uses; null without pricing.',
    }),
    ...endpointCapacityFields,
  })
  .meta({ id: 'Endpoint' });
export const endpointsResponseSchema = z
  .object({ items: z.array(endpointSchema).meta({ description: 'Listed endpoints, by provider and slug.' }) })
  .meta({ id: 'EndpointList' });

export const timelineEntrySchema = z
  .object({
    atMs: z.number().meta({ description: 'ms since request start when the event arrived (0.1 ms resolution; the probe’s monotonic clock).' }),
    tokens: z.number().int().meta({ description: 'o200k_base tokens the event carried (counted by the probe from the received text).' }),
    channel: z
      .enum(['answer', 'reasoning', 'tool'])
      .meta({ description: 'Which output the tokens belong to: answer text, reasoning, or tool-call arguments.' }),
  })
  .meta({ id: 'TimelineEntry', description: 'One content-bearing stream event as the probe received it.' });

const M = 'measured by the probe';
/** One measurement (one probe) as the API and the weekly dump publish it. */
export const measurementSchema = z
  .object({
    id: z.number().int().meta({ description: 'Measurement id (stable; GET /api/v1/measurements/{id}).' }),
    endpointId: z.number().int().meta({ description: 'Endpoint probed (GET /api/v1/endpoints/{id}).' }),
    workloadId: z.number().int().meta({ description: 'Workload id of the probe.' }),
    workload: z
      .string()
      .meta({ description: 'Workload slug of the probe (prompt category, input length, output budget; see /api/v1/models → workloads).', example: 'prose-1k' }),
    measuredAt: isoTime.meta({ description: 'When the probe started (UTC, worker clock), ISO 8601.' }),
    workerRegion: z.string().meta({ description: 'Region label of the worker that probed.' }),
    workerVersion: z.string().meta({ description: 'Version of the probe worker (git revision).' }),
    outcome: z.enum(['success', 'error']).meta({ description: 'success: the stream completed with generated tokens; error: see errorKind.' }),
    errorKind: z
      .enum(ERROR_KINDS)
      .nullable()
      .meta({ description: 'Why a probe failed: timeout, rate_limited, http_error, stream_error, empty, cancelled, blocked, invalid_url; null on success.' }),
    errorMessage: z.string().nullable().meta({ description: 'Short failure detail recorded by the probe (never a key); null on success.' }),
    httpStatus: z.number().int().nullable().meta({ description: 'HTTP status of the response; null when none arrived.' }),
    retryAfterMs: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Back-off the provider asked for (Retry-After header or an in-band hint), ms; null when none.' }),
    connectMs: z
      .number()
      .nullable()
      .meta({ description: `Connection set-up (DNS, TCP, TLS) before the request, ms, ${M}; not part of TTFT.` }),
    ttfbMs: z
      .number()
      .nullable()
      .meta({ description: `Time to first byte: request start → first response byte, ms, ${M}.` }),
    ttftMs: z
      .number()
      .nullable()
      .meta({ description: `Time to first token: request start → first chunk carrying any generated token (answer, reasoning or tool call), ms, ${M}.` }),
    ttfatMs: z
      .number()
      .nullable()
      .meta({ description: `Time to first answer token (after any reasoning), ms, ${M}.` }),
    e2eMs: z
      .number()
      .nullable()
      .meta({ description: `End-to-end latency: request start → end of stream, ms, ${M}.` }),
    outputTokensReported: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Output tokens as the provider reported them (completion_tokens or equivalent), tokens.' }),
    outputTokensO200k: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Output tokens counted by the probe from the received text with the o200k_base tokenizer, tokens.' }),
    outputTokensPerSecond: z
      .number()
      .nullable()
      .meta({
        description: `Output speed per user (TPS/user): (N − tokens of the first content chunk) ÷ (last − first content chunk time), N = outputTokensReported, tokens/s, ${M}. The ranking metric (basis=reported).`,
      }),
    outputTokensPerSecondO200k: z
      .number()
      .nullable()
      .meta({ description: `Output speed per user on the o200k_base count (N = outputTokensO200k), tokens/s, ${M}. The ranking metric with basis=o200k.` }),
    tpotMs: z
      .number()
      .nullable()
      .meta({ description: `Time per output token: (E2E − TTFT) ÷ (N − 1), ms/token, ${M}.` }),
    contentChunks: z.number().int().meta({ description: 'Content-bearing stream events received (count).' }),
    finishReason: z.string().nullable().meta({
      description:
        'Why generation stopped, normalised to OpenAI words (stop, length, tool_calls; content_filter only on rows stored before decision 190, when a filter finish became a failure); null when the stream failed, stated none, or stated an unknown one (then notRankableReasons has unknown_finish).',
    }),
    promptHash: z.string().nullable().meta({ description: 'SHA-256 (hex) of the prompt sent: probes of one slot share it.' }),
    flags: z
      .record(z.string(), z.boolean())
      .meta({ description: 'Quality flags the probe raised (tokenCountMismatch, buffered, unrecognizedShape); JSON text in CSV.' }),
    evidence: z.record(z.string(), z.unknown()).meta({
      description:
        'What the probe saw that explains a flag, e.g. unrecognizedPaths (JSON paths of values the adapter does not know), reasoningTokensReported / reasoningTokensHidden / reasoningWithheld (hidden reasoning, decision 065); agentTurn {turn, messages} on agent-turn-* rows (decision 267); cacheLifetime {seedSlot, prefixSha256, gapMinutes, gapMs: the real gap since the series’ previous request} on cache-lifetime-* rows (decision 268); servedServiceTier (the tier the response said served it) and serviceTierMismatch {asked, served} when an endpoint asked for a tier and was served another (decision 293); JSON text in CSV.',
    }),
    // alias (decision 280): valid = no timing_uncertain / event_loop_stall among notRankableReasons
    valid: deprecatedAlias(z.boolean(), 'notRankableReasons (false exactly when it holds timing_uncertain, or event_loop_stall on old rows)'),
    invalidReason: deprecatedAlias(z.string().nullable(), 'notRankableReasons'), // alias (decision 280)
    eventLoopDelayP99Ms: z
      .number()
      .nullable()
      .meta({ description: 'P99 of the worker’s event-loop delay during the probe, ms (evidence only since decision 181).' }),
    ttftBoundMs: z.number().nullable().meta({
      description: `Error bound of ttftMs, ms: the true TTFT lies in [ttftMs − ttftBoundMs, ttftMs] (stamps are only ever late): how late the first token's read and how early request start may have been stamped, from the probe process's own evidence (loop idle time, run-queue wait, decision 180); null when unknown (then not rankable, timing_uncertain), without a TTFT, or on rows before the bound existed.`,
    }),
    e2eBoundMs: z
      .number()
      .nullable()
      .meta({ description: 'Error bound of e2eMs, ms, as ttftBoundMs for the end-of-stream stamp; null when unknown or absent.' }),
    speedBoundPct: z.number().nullable().meta({
      description:
        'Error bound of the output speeds, % either way: the larger lateness bound of the first and last token stamps ÷ the span between them (decision 180); rankable needs it ≤ the published accuracy (methodology); null when unknown or without a speed. Details (per-stamp lateness, run-queue wait, GC pauses, coalesced events) in evidence.timing.',
    }),
    rankable: z.boolean().meta({
      description:
        'True when the measurement enters medians, ranks, tie bands and history: it succeeded and nothing in it contradicts its figures. The leaderboard’s percentiles are the type-7 percentiles of the rankable measurements in the window.',
    }),
    notRankableReasons: z
      .array(z.enum(NOT_RANKABLE_REASONS))
      .meta({ description: `Why rankable is false: ${NOT_RANKABLE_REASONS.join(', ')} (empty when rankable); \`;\`-joined in CSV.` }),
    itlP50Ms: z
      .number()
      .nullable()
      .meta({
        description: `Inter-token latency, token-weighted median of this stream: each gap between token-bearing events divided by the tokens the later event carried (chunk-aware; vLLM/AIPerf ITL), ms/token, ${M}; null with fewer than two token-bearing events.`,
      }),
    itlP95Ms: z
      .number()
      .nullable()
      .meta({ description: `Inter-token latency, token-weighted 95th percentile of this stream (as itlP50Ms), ms/token, ${M}.` }),
    fidelityCheck: z.enum(FIDELITY_CHECK_KINDS).nullable().meta({
      description:
        'The fidelity check this probe carried (known arithmetic, known code output, JSON schema, access-code recall; every one also checks a three-part access code spread over the prompt); null for an ordinary probe.',
    }),
    fidelityPassed: z.boolean().nullable().meta({
      description:
        'Verdict of the fidelity check: true when the answer was right and quoted the whole access code; null for an ordinary probe or a failed one.',
    }),
    fidelityDetail: z.record(z.string(), z.unknown()).nullable().meta({
      description:
        'Evidence of the fidelity verdict: expected (answer, code), got (what the reply said), failures (no_answer, wrong_answer, invalid_json, schema_mismatch, nonce_missing); JSON text in CSV.',
    }),
    answerText: z.string().nullable().meta({ description: 'The streamed answer of a fidelity probe, capped at 16 KB (UTF-8); null for ordinary probes.' }),
    reasoningTokensHidden: z.number().int().nullable().meta({
      description:
        'Reasoning tokens the provider reported in its usage but did not stream (hidden reasoning, generated before the first streamed token, so inside TTFT), tokens; included in outputTokensReported but taken out of the N of outputTokensPerSecond (visible basis, decision 065), absent from outputTokensO200k; 0 when reasoning text was streamed; null when the provider reports no reasoning count.',
    }),
    cachedInputTokens: z.number().int().nullable().meta({
      description: `Input tokens the provider reported serving from its prompt cache (OpenAI/vLLM usage.prompt_tokens_details.cached_tokens, Responses input_tokens_details.cached_tokens, Anthropic cache_read_input_tokens, Gemini cachedContentTokenCount, Bedrock cacheReadInputTokens), tokens; null when the stream reported no cache count (decision 260).`,
    }),
    cacheWriteInputTokens: z.number().int().nullable().meta({
      description:
        'Input tokens the provider reported writing to its prompt cache (Anthropic cache_creation_input_tokens, Bedrock cacheWriteInputTokens), tokens; null when not reported.',
    }),
    inputTokensReported: z.number().int().nullable().meta({
      description:
        'Input (prompt) tokens the provider reported for the request, cached ones included (OpenAI/vLLM usage.prompt_tokens, Responses usage.input_tokens, Anthropic input_tokens + cache_read_input_tokens + cache_creation_input_tokens, Gemini promptTokenCount, Bedrock inputTokens + cacheReadInputTokens + cacheWriteInputTokens), tokens; null when the stream reported none. cachedInputTokens ÷ inputTokensReported is the cached share of the prompt (decision 290).',
    }),
    tierObjectiveMet: z.number().int().nullable().meta({
      description:
        'Whether this measurement met its endpoint’s published tier objective as declared when it was measured (decision 263): 1 met (TPS/user above the objective’s threshold and TTFT within its threshold), 0 missed, null when the endpoint declared no objective or the probe failed. Only rankable measurements enter tierObjectiveAttainment.',
    }),
    disclosureRevisionId: z.number().int().nullable().meta({
      description:
        'The endpoint’s disclosure revision in force when the measurement was stored (declared hardware, engine, precision, …; GET /api/v1/endpoints/{id}/revisions, decision 178); null on measurements stored before revisions were kept.',
    }),
    timeline: z
      .array(timelineEntrySchema)
      .optional()
      .meta({ description: 'Every content-bearing event, decoded; present with timeline=1 and on /api/v1/measurements/{id}; never in CSV.' }),
  })
  .meta({ id: 'Measurement', description: 'One probe of one endpoint with one workload: the stored evidence behind every figure.' });

/** A measurement page's cursor and filters, shared by the JSON page and its CSV. */
export const measurementsResponseSchema = z
  .object({
    endpointId: z.number().int().meta({ description: 'The endpoint whose measurements these are.' }),
    items: z.array(measurementSchema).meta({ description: 'Measurements, newest first ((measuredAt, id) descending).' }),
    nextCursor: z.string().nullable().meta({ description: 'Pass as cursor for the next (older) page; null at the end. Opaque.' }),
  })
  .meta({ id: 'MeasurementPage' });

/** GET /api/v1/measurements/{id}. */
export const measurementDetailResponseSchema = measurementSchema
  .extend({ timeline: z.array(timelineEntrySchema).meta({ description: 'Every content-bearing event, decoded, in arrival order.' }) })
  .meta({ id: 'MeasurementWithTimeline', description: 'One measurement with its decoded timeline.' });

/** One weekly dump as GET /api/v1/dumps lists it. */
export const dumpSchema = z
  .object({
    id: z.number().int().meta({ description: 'Dump id.' }),
    from: isoTime.meta({ description: 'First instant covered (inclusive): measurements with measuredAt ≥ from.' }),
    until: isoTime.meta({ description: 'End of the period (exclusive): measurements with measuredAt < until.' }),
    rows: z.number().int().meta({ description: 'Measurements in the file (CSV data lines), count.' }),
    bytes: z.number().int().meta({ description: 'Size of the gzip file, bytes.' }),
    sha256: z.string().meta({ description: 'SHA-256 (hex) of the gzip file as served; check with sha256sum.' }),
    url: z.string().meta({
      description: 'Path of the gzip CSV (same column names as /api/v1/endpoints/{id}/measurements.csv).',
      example: '/api/v1/dumps/1/measurements.csv.gz',
    }),
    manifestUrl: z
      .string()
      .meta({ description: 'Path of the manifest (columns with units and sources, counts, checksums).', example: '/api/v1/dumps/1/manifest.json' }),
    createdAt: isoTime.meta({ description: 'When the dump was written.' }),
  })
  .meta({ id: 'Dump', description: 'One weekly public data dump.' });
export const dumpsResponseSchema = z.object({ items: z.array(dumpSchema).meta({ description: 'Dumps, newest period first.' }) }).meta({ id: 'DumpList' });

/** The manifest of a dump (also stored with it). */
export const dumpManifestSchema = z
  .object({
    format: z.literal('tokenpace-measurements-dump/1').meta({ description: 'Manifest format name and version.' }),
    id: z.number().int().meta({ description: 'Dump id.' }),
    from: isoTime.meta({ description: 'First instant covered (inclusive).' }),
    until: isoTime.meta({ description: 'End of the period (exclusive).' }),
    rows: z.number().int().meta({ description: 'Measurements in the file, count.' }),
    bytes: z.number().int().meta({ description: 'Size of the gzip file, bytes.' }),
    sha256: z.string().meta({ description: 'SHA-256 (hex) of the gzip file.' }),
    csvSha256: z.string().meta({ description: 'SHA-256 (hex) of the uncompressed CSV text.' }),
    file: z.string().meta({ description: 'Path of the gzip CSV.' }),
    order: z.string().meta({ description: 'Row order of the file.' }),
    rankableRule: z.string().meta({ description: 'Which rows enter published figures.' }),
    columns: z
      .array(
        z.object({
          name: z.string().meta({ description: 'Column name: the JSON field’s dotted path.' }),
          description: z.string().meta({ description: 'Meaning, unit and source of the column.' }),
        }),
      )
      .meta({ description: 'Every column in file order.' }),
    disputes: z.array(disputeSchema).optional().meta({
      description:
        'Disputes overlapping the period, as known when the dump was written (decision 232; later ones: /api/v1/disputes). Rows they exclude have rankable false with reason disputed.',
    }),
    annotations: z.array(annotationSchema).optional().meta({ description: 'Annotations overlapping the period, as known when the dump was written.' }),
    disclosureRevisions: z.array(disclosureRevisionSchema).optional().meta({
      description:
        'Disclosure revisions of the dumped endpoints in effect before the period ended (the declared metadata a row’s disclosureRevisionId names; decision 178), newest first per endpoint, as known when the dump was written.',
    }),
    createdAt: isoTime.meta({ description: 'When the dump was written.' }),
    signature: embeddedSignatureSchema.optional(),
  })
  .meta({ id: 'DumpManifest', description: 'What a dump contains and how to check it.' });

export const changePointSchema = z
  .object({
    day: day.meta({ description: 'First day of the new level.' }),
    before: z.number().meta({ description: 'Median of the daily medians before, tokens/s.' }),
    after: z.number().meta({ description: 'Median of the daily medians after, tokens/s.' }),
    relativeChange: z.number().meta({ description: '(after − before) ÷ before.' }),
    pValue: z.number().meta({ description: 'Two-sided Mann–Whitney p-value (optimistic: computed after choosing the split).' }),
    label: z.string().meta({ description: 'The change in words: relative change and first day.', example: '+38% on 2025-06-02' }),
    revision: changePointRevisionSchema.optional(),
  })
  .meta({ id: 'ChangePoint', description: 'A level shift of the daily median output speed (≥ 15 % and p < 0.05, segments ≥ 3 days).' });

export const historyPointSchema = z
  .object({
    bucketStart: isoTime,
    n: z.number().int().meta({ description: 'Probes in the bucket, successes and failures (from rollups); the n of a leaderboard entry, per bucket.' }),
    count: deprecatedAlias(z.number().int(), 'n'), // alias (decision 280)
    successes: z.number().int().meta({ description: 'Successful probes in the bucket (count).' }),
    outputTokensPerSecond: percentilesSchema,
    outputTokensPerSecondO200k: percentilesSchema,
    ttftMs: percentilesSchema,
    ttfatMs: percentilesSchema,
    e2eMs: percentilesSchema,
    errorKinds: errorKindCounts,
    notRankable: notRankableCountsSchema,
    excluded: deprecatedAlias(notRankableCountsSchema, 'notRankable'), // alias (decision 280)
    percentileSource: z.enum(['sketch']).meta({
      description: 'Always sketch: the window engine’s figures (the leaderboard’s computation), each percentile within 0.05 % of the exact type-7 value.',
    }),
  })
  .meta({ id: 'HistoryPoint' });
export const endpointHistoryResponseSchema = z
  .object({
    endpointId: z.number().int().meta({ description: 'Endpoint id.' }),
    workload: z.string().meta({ description: 'Workload slug.' }),
    granularity: z.enum(['hour', 'day']).meta({ description: 'Bucket size: UTC hours or UTC days.' }),
    window: z.string().meta({ description: 'Window as requested, e.g. "30d" (history covers [from, to]).', example: '30d' }),
    windowHours: z.number().int().meta({ description: 'Window length, hours.' }),
    region: z.string().nullable().meta({ description: 'Worker region filter; null = all regions.' }),
    basis: z.enum(['reported', 'o200k']).meta({ description: 'Token basis of output speed for the change points (reported or o200k).' }),
    from: isoTime.meta({ description: 'Start of the history (ISO 8601, UTC).' }),
    to: isoTime.meta({ description: 'End of the history: the as-of instant (ISO 8601, UTC).' }),
    series: z.array(historyPointSchema).meta({ description: 'Buckets, oldest first.' }),
    changePoints: z.array(changePointSchema).meta({ description: 'Change points of the daily median output speed over the range (basis as requested).' }),
  })
  .meta({ id: 'EndpointHistory' });

const modelHistoryEndpointSchema = z
  .object({
    id: z.number().int().meta({ description: 'Endpoint id.' }),
    slug: z.string().meta({ description: 'Endpoint slug.' }),
    provider: z.string().meta({ description: 'Provider name.' }),
    providerSlug: z.string().meta({ description: 'Provider slug.' }),
  })
  .meta({ description: 'The endpoint of this series.' });
const modelHistoryDaySchema = z
  .object({
    day,
    n: z.number().int().meta({ description: 'Probes that day, successes and failures (from daily rollups); the n of a leaderboard entry, per day.' }),
    count: deprecatedAlias(z.number().int(), 'n'), // alias (decision 280)
    successes: z.number().int().meta({ description: 'Successful probes that day (count).' }),
    samples: z.number().int().meta({ description: 'Rankable measurements behind the percentiles (count).' }),
    median: z.number().nullable().meta({ description: 'Daily median output speed per user, tokens/s (type-7 percentile of the day’s rankable measurements).' }),
    p25: z.number().nullable().meta({ description: 'Daily P25 output speed per user, tokens/s.' }),
    p75: z.number().nullable().meta({ description: 'Daily P75 output speed per user, tokens/s.' }),
  })
  .meta({ id: 'ModelHistoryDay' });

/** One CSV line of the model history: an endpoint's day, with the change point starting that day. */
export const modelHistoryCsvRowSchema = modelHistoryDaySchema.extend({
  endpoint: modelHistoryEndpointSchema,
  changePoint: z.string().nullable().meta({ description: 'Label of the change point starting that day (e.g. "+38% on 2025-06-02"), or empty.' }),
});

export const modelHistoryResponseSchema = z
  .object({
    model: z.string().meta({ description: 'Model slug.' }),
    workload: z.string().meta({ description: 'Workload slug.' }),
    window: z.string().meta({ description: 'Window as requested, e.g. "90d" (history covers [from, to]).', example: '90d' }),
    windowHours: z.number().int().meta({ description: 'Window length, hours.' }),
    region: z.string().nullable().meta({ description: 'Worker region filter; null = all regions.' }),
    basis: z.enum(['reported', 'o200k']).meta({ description: 'Token basis of output speed (reported completion_tokens or o200k_base count).' }),
    from: isoTime.meta({ description: 'Start of the history (ISO 8601, UTC).' }),
    to: isoTime.meta({ description: 'End of the history: the as-of instant (ISO 8601, UTC).' }),
    series: z
      .array(
        z.object({
          endpoint: modelHistoryEndpointSchema,
          days: z.array(modelHistoryDaySchema).meta({ description: 'Daily figures from daily rollups, oldest first.' }),
          changePoints: z.array(changePointSchema).meta({ description: 'Level shifts of the daily median.' }),
        }),
      )
      .meta({ description: 'One series per listed endpoint of the model.' }),
  })
  .meta({ id: 'ModelHistory' });

export const claimSchema = z
  .object({
    id: z.number().int().meta({ description: 'Claim id.' }),
    subject: z.string().meta({ description: 'What the claim is about, as the source names it.' }),
    provider: z.string().meta({ description: 'Provider or vendor the claim is about.' }),
    providerSlug: z.string().nullable().meta({ description: 'Catalog provider slug when it is one of ours.' }),
    system: z.string().nullable().meta({
      description:
        'The serving system the claim is about, in the source’s terms (e.g. NVIDIA DGX B200 (8x B200), TensorRT-LLM, self-hosted); null when the source does not say. Matched to endpoints’ declared system.',
    }),
    endpointIds: z.array(z.number().int()).meta({
      description:
        'Ids of the catalog endpoints that are this system (the claim is shown beside them only); empty when we measure no endpoint of that system. CSV: ids joined by ";".',
    }),
    model: z.string().meta({ description: 'Model the claim is about.' }),
    modelSlug: z.string().nullable().meta({ description: 'Catalog model slug when it is one of ours.' }),
    metric: z.string().meta({ description: 'Claimed metric, e.g. outputTokensPerSecond.' }),
    value: z.number().meta({ description: 'Claimed value, in unit.' }),
    unit: z.string().meta({ description: 'Unit of value, e.g. tokens/s.' }),
    bound: z.string().meta({ description: 'eq, approx, lt, le, gt or ge.' }),
    measuredBy: z.string().nullable().meta({ description: 'Who measured it, per the source.' }),
    claimDate: z.string().meta({ description: 'YYYY, YYYY-MM or YYYY-MM-DD, as precise as the source.' }),
    sourceTitle: z.string().nullable().meta({ description: 'Title of the source.' }),
    sourcePublisher: z.string().nullable().meta({ description: 'Publisher of the source.' }),
    sourceUrl: z.string().nullable().meta({ description: 'URL of the source.' }),
    note: z.string().nullable().meta({ description: 'Our note on the claim (context, caveats).' }),
  })
  .meta({ id: 'Claim' });
export const claimsResponseSchema = z
  .object({
    kind: z.literal('claims').meta({ description: 'Always claims: these are not measurements.' }),
    note: z.string().meta({ description: 'What claims are and are not.' }),
    items: z.array(claimSchema).meta({ description: 'Claims, as imported with their sources.' }),
  })
  .meta({ id: 'ClaimList' });

export const datasetSchema = z
  .object({
    id: z.number().int().meta({ description: 'Dataset id.' }),
    slug: z.string().meta({ description: 'Dataset slug (GET /api/v1/datasets/{slug}).' }),
    title: z.string().meta({ description: 'Title.' }),
    source: z.string().meta({ description: 'Who published the data.' }),
    sourceUrl: z.string().nullable().meta({ description: 'Where the data was taken from.' }),
    sourceCommit: z.string().nullable().meta({ description: 'Git commit of the source repository, when taken from one.' }),
    licence: z.string().meta({ description: 'Licence of the data.' }),
    collectedOn: z.string().nullable().meta({ description: 'When the publisher collected it (as precise as known).' }),
    description: z.string().nullable().meta({ description: 'What the data is and how it was measured.' }),
    importedAt: isoTime.meta({ description: 'When Tokenpace imported it.' }),
  })
  .meta({ id: 'Dataset', description: 'Third-party data imported with its provenance; not measured by Tokenpace.' });
export const datasetsResponseSchema = z.object({ items: z.array(datasetSchema).meta({ description: 'Imported datasets.' }) }).meta({ id: 'DatasetList' });
export const datasetDetailResponseSchema = datasetSchema
  .extend({
    series: z
      .array(
        z.object({
          id: z.number().int().meta({ description: 'Series id.' }),
          slug: z.string().meta({ description: 'Series slug.' }),
          provider: z.string().meta({ description: 'Provider as the dataset names it.' }),
          model: z.string().meta({ description: 'Model as the dataset names it.' }),
          summary: z.record(z.string(), z.unknown()).meta({
            description: 'Summary statistics per metric, units in the names (ttftMs, e2eMs, outputTokensPerSecond, …), computed from the dataset’s raw rows.',
          }),
        }),
      )
      .meta({ description: 'One series per provider and model in the dataset.' }),
  })
  .meta({ id: 'DatasetDetail' });

export const pingResponseSchema = z
  .object({ ok: z.literal(true).meta({ description: 'Always true.' }), api: z.literal('v1').meta({ description: 'API version.' }) })
  .meta({ id: 'Ping' });

// ── Write routes (signed-in providers and admins; documented, not open to anonymous clients) ──

/** The result of one verification probe of a submitted endpoint. */
export const verificationSchema = z
  .object({
    id: z.number().int().meta({ description: 'Verification id.' }),
    endpointId: z.number().int().meta({ description: 'The endpoint it verified.' }),
    startedAt: isoTime.meta({ description: 'When the verification probe started.' }),
    outcome: z.enum(['success', 'error']).meta({ description: 'Whether the verification probe succeeded.' }),
    errorKind: z.string().nullable().meta({ description: 'Why it failed (same words as Measurement.errorKind); null on success.' }),
    errorMessage: z.string().nullable().meta({ description: 'Short failure detail (never the key); null on success.' }),
    httpStatus: z.number().int().nullable().meta({ description: 'HTTP status of the response; null when none arrived.' }),
    ttftMs: z.number().nullable().meta({ description: 'Time to first token of the verification probe, ms.' }),
    e2eMs: z.number().nullable().meta({ description: 'End-to-end latency of the verification probe, ms.' }),
    outputTokens: z.number().int().nullable().meta({ description: 'Output tokens of the verification probe (provider-reported), tokens.' }),
    outputTokensPerSecond: z.number().nullable().meta({ description: 'Output speed per user of the verification probe, tokens/s.' }),
  })
  .meta({ id: 'Verification', description: 'One verification probe run when an endpoint is submitted or its target changes.' });

/** A submitted endpoint as its owner (or an admin) sees it; never the API key. */
export const submittedEndpointSchema = z
  .object({
    ...endpointNameFields,
    ...endpointTargetFields,
    hasApiKey: z.boolean().meta({ description: 'Whether an API key is stored (encrypted at rest; never returned).' }),
    ...declaredEndpointFields,
    system: z.string().nullable().meta({
      description:
        'The serving system the endpoint is, in the claims’ words (e.g. NVIDIA DGX B200 (8x B200), TensorRT-LLM), as declared by its owner; claims about that system are shown beside it. null when undeclared.',
    }),
    ...endpointCapacityFields,
    contact: z.string().nullable().meta({ description: 'Contact of the submitter (shown to admins).' }),
    notes: z.string().nullable().meta({ description: 'Free notes of the submitter.' }),
    pricing: endpointPricingSchema
      .nullable()
      .meta({ description: 'Declared prices with source URL and date (USD per million tokens); null when none declared.' }),
    status: z.string().meta({ description: 'pending, active, paused, rejected or inactive.' }),
    ownerUserId: z.string().nullable().meta({ description: 'Account that submitted the endpoint.' }),
    rejectionReason: z.string().nullable().meta({ description: 'Why an admin rejected it; null otherwise.' }),
    revision: z
      .number()
      .int()
      .meta({ description: 'Version of the submission: 1 when submitted, +1 per owner edit. A review names the revision it was made on.' }),
    providerClaim: z.enum(PROVIDER_CLAIMS).meta({
      description:
        'How the provider name is backed (decision 162): new_provider (the submission created it), verified_domain (the account’s verified email is at the provider’s website domain), unverified (an admin must link it when approving) or admin_linked.',
    }),
    submittedAt: isoTime.meta({ description: 'When it was submitted.' }),
    reviewedAt: isoTime.nullable().meta({ description: 'When an admin reviewed it; null while pending.' }),
    createdAt: isoTime.meta({ description: 'When the row was created.' }),
    updatedAt: isoTime.meta({ description: 'Last change.' }),
  })
  .meta({ id: 'SubmittedEndpoint', description: 'A submitted endpoint with its private fields (owner and admins only).' });

export const submissionResultSchema = z
  .object({
    endpoint: submittedEndpointSchema,
    verification: verificationSchema.nullable().meta({ description: 'The verification probe run by this request; null when none ran.' }),
  })
  .meta({ id: 'SubmissionResult' });

export const reviewResultSchema = z.object({ endpoint: submittedEndpointSchema }).meta({ id: 'ReviewResult' });

export const deletedEndpointSchema = z
  .object({
    id: z.number().int().meta({ description: 'Endpoint id.' }),
    status: z.literal('deleted').meta({ description: 'Always deleted: measurements stay as evidence.' }),
  })
  .meta({ id: 'DeletedEndpoint' });

export const ownedEndpointsResponseSchema = z
  .object({
    items: z
      .array(
        submittedEndpointSchema.extend({
          verification: verificationSchema.nullable().meta({ description: 'Latest verification probe; null when none ran.' }),
          recent: z
            .object({
              successes: z.number().int().meta({ description: 'Successful probes in the last 24 h, count.' }),
              failures: z.number().int().meta({ description: 'Failed probes in the last 24 h, count.' }),
              failuresByKind: z.record(z.string(), z.number().int()).meta({ description: 'Failed probes in the last 24 h by error kind, counts.' }),
              medianOutputTokensPerSecond: z.number().nullable().meta({ description: 'Median output speed per user over the last 24 h, tokens/s.' }),
              medianTtftMs: z.number().nullable().meta({ description: 'Median TTFT over the last 24 h, ms.' }),
              lastMeasuredAt: isoTime.nullable().meta({ description: 'Latest probe; null when none.' }),
            })
            .meta({ description: 'The last 24 hours of measurements.' }),
        }),
      )
      .meta({ description: 'The signed-in account’s endpoints, newest first.' }),
  })
  .meta({ id: 'OwnedEndpointList' });

export const apiTokenSchema = z
  .object({
    id: z.number().int().meta({ description: 'Token id.' }),
    name: z.string().meta({ description: 'Name given at creation.' }),
    prefix: z.string().meta({ description: 'First characters of the token, to recognise it.' }),
    createdAt: isoTime.meta({ description: 'When it was created.' }),
    lastUsedAt: isoTime.nullable().meta({ description: 'Last use; null when never used.' }),
    revokedAt: isoTime.nullable().meta({ description: 'When it was revoked; null while live.' }),
  })
  .meta({ id: 'ApiToken' });
export const apiTokensResponseSchema = z
  .object({ items: z.array(apiTokenSchema).meta({ description: 'The account’s tokens, newest first (never the token or its hash).' }) })
  .meta({ id: 'ApiTokenList' });
export const createdApiTokenSchema = z
  .object({
    id: z.number().int().meta({ description: 'Token id.' }),
    name: z.string().meta({ description: 'Name given at creation.' }),
    prefix: z.string().meta({ description: 'First characters of the token.' }),
    createdAt: isoTime.meta({ description: 'When it was created.' }),
    token: z.string().meta({ description: 'The token itself, shown this once: send it as Authorization: Bearer <token>.' }),
  })
  .meta({ id: 'CreatedApiToken' });
export const revokedApiTokenSchema = z
  .object({ id: z.number().int().meta({ description: 'Token id.' }), revoked: z.literal(true).meta({ description: 'Always true.' }) })
  .meta({ id: 'RevokedApiToken' });

/** GET /.well-known/tokenpace-keys.json (= /api/v1/signing-keys). */
export const signingKeysResponseSchema = z
  .object({
    keys: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Key id, as in keyId of an embedded signature and keyid of Tokenpace-Signature.' }),
          alg: z.literal('Ed25519').meta({ description: 'Algorithm.' }),
          publicKeyPem: z
            .string()
            .meta({ description: 'Public key, PEM (SPKI): `openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in file -sigfile sig`.' }),
          jwk: z
            .object({
              kty: z.literal('OKP').meta({ description: 'Key type (octet key pair).' }),
              crv: z.literal('Ed25519').meta({ description: 'Curve.' }),
              x: z.string().meta({ description: 'Public key, base64url (32 bytes).' }),
            })
            .meta({ description: 'The same public key as a JWK (RFC 8037).' }),
          validFrom: isoTime.meta({ description: 'From when it signs.' }),
          validUntil: isoTime.nullable().meta({
            description: 'When it stopped signing (rotation); null for the current key. Retired keys stay listed so that what they signed still verifies.',
          }),
        }),
      )
      .meta({ description: 'Every key this deployment has signed with, oldest first.' }),
  })
  .meta({ id: 'SigningKeys', description: 'Public keys of the deployment’s Ed25519 signatures (snapshots, leaderboard answers, dumps, manifests).' });

/** GET /api/v1/rules. */
export const rulesResponseSchema = z
  .object({
    version: z.string().meta({ description: 'Version of the rules in force.', example: '1.0' }),
    date: day.meta({ description: 'Date of this version.' }),
    sections: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Section id (anchor on /rules).' }),
          title: z.string().meta({ description: 'Section title.' }),
          rules: z
            .array(
              z.object({
                id: z.string().meta({ description: 'Rule id (anchor on /rules).' }),
                text: z.string().meta({ description: 'The rule.' }),
                enforcedBy: z.string().optional().meta({ description: 'How Tokenpace checks or enforces it.' }),
              }),
            )
            .meta({ description: 'The rules of the section.' }),
        }),
      )
      .meta({ description: 'Requirements, forbidden practices, sweeps, consequences, disputes.' }),
  })
  .meta({ id: 'Rules', description: 'The rules every listed endpoint is held to (/rules).' });
/** One endpoint standing for its model in the comparison: the model board's figures and the catalog's declared facts. */
export const comparedEndpointSchema = z
  .object({
    id: z.number().int().meta({ description: 'Endpoint id (GET /api/v1/endpoints/{id}).' }),
    slug: z.string().meta({ description: 'Endpoint slug.' }),
    provider: z.string().meta({ description: 'Provider name.' }),
    providerSlug: z.string().meta({ description: 'Provider slug.' }),
    precision: z.string().nullable().meta({ description: 'Declared precision (FP8, BF16, …); not verified; null when undeclared.' }),
    hardware: z.string().nullable().meta({ description: 'Declared hardware; not verified.' }),
    contextWindowTokens: z.number().int().nullable().meta({ description: 'Declared context window, tokens; null when unknown.' }),
    blendedUsdPerMTokens: z.number().nullable().meta({ description: 'Declared blended price, USD per million tokens (3:1 input:output); null when unknown.' }),
    rank: z.number().int().meta({ description: 'Rank on the model’s leaderboard.' }),
    band: z.number().int().nullable().meta({ description: 'Tie band on the model’s leaderboard (1 = best).' }),
    samples: z.number().int().meta({ description: 'Rankable probes behind the output-speed percentiles.' }),
    outputTokensPerSecond: percentilesSchema.meta({ description: 'Output speed per user (TPS/user), tokens/s: the model leaderboard entry’s figures.' }),
    outputTokensPerSecondMedianCi: interval.nullable().meta({ description: '95 % confidence interval of the median TPS/user, tokens/s.' }),
    ttftMs: percentilesSchema.meta({ description: 'Time to first token, ms.' }),
    successRate: z.number().nullable().meta({ description: 'Successful probes ÷ probes in the window (fraction).' }),
    fidelity: windowFidelitySchema.nullable().meta({ description: 'Fidelity checks in the window (the board entry’s); null when none ran.' }),
  })
  .meta({ id: 'ComparedEndpoint' });

/** One model of the comparison. */
export const comparedModelSchema = z
  .object({
    slug: z.string().meta({ description: 'Model slug (the model= parameter of the leaderboard).' }),
    name: z.string().meta({ description: 'Model name.' }),
    family: z.string().nullable().meta({ description: 'Model family, e.g. Qwen3.' }),
    creator: z.string().nullable().meta({ description: 'Who made the weights.' }),
    weights: z
      .enum(['open', 'proprietary'])
      .nullable()
      .meta({ description: 'open (published weights, served by many providers) or proprietary; null when undeclared.' }),
    retired: z.boolean().meta({ description: 'Retired from the catalog (kept with its history).' }),
    endpointCount: z.number().int().meta({ description: 'Listed endpoints of the model (any status), count.' }),
    activeEndpointCount: z.number().int().meta({ description: 'Endpoints probed now (their provider key is set), count.' }),
    providers: z
      .array(z.object({ slug: z.string().meta({ description: 'Provider slug.' }), name: z.string().meta({ description: 'Provider name.' }) }))
      .meta({ description: 'Providers with a listed endpoint of the model.' }),
    maxContextWindowTokens: z.number().int().nullable().meta({ description: 'Largest declared context window among its endpoints, tokens.' }),
    minBlendedUsdPerMTokens: z.number().nullable().meta({ description: 'Lowest declared blended price among its endpoints, USD per million tokens.' }),
    snapshotId: z.string().meta({ description: 'snapshotId of the model’s leaderboard answer these figures are copied from (GET /api/v1/snapshots/{id}).' }),
    asOf: isoTime.meta({ description: 'As-of instant of that leaderboard answer.' }),
    best: comparedEndpointSchema
      .nullable()
      .meta({ description: 'The fastest ranked endpoint passing the filters (the first such entry of the model’s board); null when none is ranked.' }),
  })
  .meta({ id: 'ComparedModel' });

/** GET /api/v1/model-comparison. */
export const modelComparisonResponseSchema = z
  .object({
    asOf: isoTime.nullable().meta({ description: 'Newest as-of instant of the model answers.' }),
    workload: z.string().meta({ description: 'Workload slug.' }),
    window: z.string().meta({ description: 'Window, hours.', example: '72h' }),
    windowHours: z.number().int().meta({ description: 'Window length, hours.' }),
    basis: z.string().meta({ description: 'Speed basis (reported or o200k).' }),
    region: z.string().nullable().meta({ description: 'Worker region filter; null = all regions.' }),
    items: z.array(comparedModelSchema).meta({ description: 'Models, fastest best endpoint first, then unmeasured ones by name.' }),
  })
  .meta({ id: 'ModelComparison' });
