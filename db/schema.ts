/**
 * Tokenpace database schema (drizzle). Tables plural snake_case in SQL, camelCase in TypeScript.
 * Times are UTC timestamptz; durations are milliseconds (double precision) with units in names.
 * Measurements are append-only evidence: never updated in place (annotations correct them).
 */
import { sql } from 'drizzle-orm';
import type { DisclosureValues } from '@/lib/catalog/disclosure';
import type { EndpointPricing } from '@/lib/catalog/pricing';
import type { StoredTimingEvidence as MeasurementTimingEvidence } from '@/lib/probe/timing-bound';
import type { ServiceTierDeclaration, TierObjective } from '@/lib/probe/service-tier';
import type { DeliveredEvidence } from '@/lib/reference-server/delivery-report';
import { FIDELITY_CHECK_KINDS } from '@/lib/fidelity/tasks';
import { ERROR_KINDS, NOT_RANKABLE_REASONS, PROTOCOLS } from '@/lib/probe/types';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

/**
 * `<column> in ('a', 'b', …)` for a CHECK: the words come from the one TypeScript list (lib/), so
 * adding a word there makes `drizzle-kit generate` write the migration that lets the database
 * accept it (decision 281).
 */
function oneOf(column: unknown, words: readonly string[]) {
  return sql`${column} in (${sql.raw(quoteWords(words))})`;
}
/** `<column> <@ array['a', …]` for a CHECK on a text[] column (every element one of the words). */
function allOf(column: unknown, words: readonly string[]) {
  return sql`${column} <@ array[${sql.raw(quoteWords(words))}]::text[]`;
}
const quoteWords = (words: readonly string[]) => words.map((w) => `'${w.replace(/'/g, "''")}'`).join(', ');

/** Words of the text enums that a CHECK also enforces (one list each: the column's type and its CHECK). */
const PROVIDER_KINDS = ['provider', 'calibration'] as const;
const ENDPOINT_STATUSES = ['active', 'inactive', 'pending', 'rejected', 'paused', 'deleted', 'retired'] as const;
const DEPLOYMENT_KINDS = ['shared', 'dedicated', 'self-hosted'] as const;
const WORKLOAD_CATEGORIES = ['prose', 'code', 'math', 'json'] as const;
const OUTCOMES = ['success', 'error'] as const;
const GRANULARITIES = ['hour', 'day'] as const;

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A company or team serving models; `kind = 'calibration'` marks our own reference servers. */
export const providers = pgTable('providers', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  kind: text('kind', { enum: PROVIDER_KINDS }).notNull().default('provider'),
  websiteUrl: text('website_url'),
  /** False for a provider named by a submission until an admin approves it (kept out of public lists). */
  listed: boolean('listed').notNull().default(true),
  createdAt: createdAt(),
});

/** A model family/version, e.g. Llama 4 Maverick 17B-128E Instruct. */
export const models = pgTable('models', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  family: text('family'),
  description: text('description'),
  /** Who made the weights (OpenAI, DeepSeek, Meta, ...); null when undeclared (submissions, calibration). */
  creator: text('creator'),
  /**
   * `open` when the weights are published (anyone may serve them: many providers, one model),
   * `proprietary` when only its maker's API (and its cloud resellers) serve it; null = undeclared.
   */
  weights: text('weights', { enum: ['open', 'proprietary'] }),
  /**
   * Identity of the weights (the model card, e.g. https://huggingface.co/openai/gpt-oss-120b): every
   * endpoint serving these weights, under any provider id or quantisation, belongs to this model
   * (decision 221). Null when undeclared.
   */
  weightsUrl: text('weights_url'),
  /** When the model was retired from the catalog (kept with its history, no longer probed); null = current. */
  retiredAt: timestamp('retired_at', { withTimezone: true }),
  /** False for a model proposed by a submission until an admin approves it (kept out of public lists). */
  listed: boolean('listed').notNull().default(true),
  createdAt: createdAt(),
});

/**
 * One provider's serving of one model at one URL/protocol/API model id, with declared metadata.
 * status: active endpoints are scheduled; `inactive` ones wait for their API key variable;
 * `pending`/`rejected`/`paused`/`deleted` belong to the submission flow (deleted = soft delete by
 * its owner: the row and its measurements stay as evidence, it is no longer listed or probed).
 * `retired`: a catalog endpoint whose provider retired the model or id: still listed with its history,
 * never probed (decision 222).
 */
export const endpoints = pgTable(
  'endpoints',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    modelId: integer('model_id')
      .notNull()
      .references(() => models.id),
    protocol: text('protocol', { enum: PROTOCOLS }).notNull(),
    baseUrl: text('base_url').notNull(),
    apiModelId: text('api_model_id').notNull(),
    /** Name of the environment variable holding the API key (seeded endpoints). */
    apiKeyEnv: text('api_key_env'),
    /** AES-256-GCM envelope of a submitted API key; never returned by any API. */
    apiKeyEncrypted: text('api_key_encrypted'),
    hardware: text('hardware'),
    engine: text('engine'),
    precision: text('precision'),
    speculativeDecoding: text('speculative_decoding'),
    draftLength: integer('draft_length'),
    deploymentKind: text('deployment_kind', { enum: DEPLOYMENT_KINDS }),
    region: text('region'),
    isCalibration: boolean('is_calibration').notNull().default(false),
    /** Calibration endpoints: the configured output speed (tokens/s) and TTFT (ms). */
    calibrationTps: doublePrecision('calibration_tps'),
    calibrationTtftMs: doublePrecision('calibration_ttft_ms'),
    /** Permit loopback/private addresses for this endpoint (local calibration only). */
    allowPrivate: boolean('allow_private').notNull().default(false),
    /**
     * Headers the operator adds to this endpoint's probes and sweeps (lib/probe/probe-headers,
     * decision 174), lower-case name → value, at most 4; null = none (the default: a probe sends
     * only what an ordinary SDK client sends).
     */
    probeHeaders: jsonb('probe_headers').$type<Record<string, string> | null>(),
    status: text('status', { enum: ENDPOINT_STATUSES }).notNull().default('active'),
    ownerUserId: text('owner_user_id'),
    contact: text('contact'),
    notes: text('notes'),
    /**
     * The serving system this endpoint is, in the words published claims use (e.g. "SambaNova
     * Cloud API", "NVIDIA DGX B200 (8x B200), TensorRT-LLM, self-hosted"): a claim is shown beside
     * the endpoints of its system only (decision 073). Null when undeclared.
     */
    system: text('system'),
    /**
     * Declared prices (lib/catalog/pricing EndpointPricing: USD per million tokens, source URL and
     * date), set by the owner at submission or by an admin; null when none declared. Shown as declared.
     */
    pricing: jsonb('pricing').$type<EndpointPricing | null>(),
    /** Declared context window, tokens; null when undeclared (no ~100k workloads then; lib/probe/cadence). */
    contextWindowTokens: integer('context_window_tokens'),
    /**
     * Declared service tier (lib/probe/service-tier ServiceTierDeclaration: one documented request
     * parameter and its value, e.g. {parameter: "service_tier", value: "priority"}), sent with every
     * probe of this endpoint and of no other; null: the provider's default tier. Decision 262.
     */
    serviceTier: jsonb('service_tier').$type<ServiceTierDeclaration | null>(),
    /**
     * The provider's published objective for that tier (lib/probe/service-tier TierObjective: share,
     * TPS/user and/or TTFT threshold, source URL); null when none is published (no attainment shown).
     */
    tierObjective: jsonb('tier_objective').$type<TierObjective | null>(),
    /** Declared number of GPUs (accelerators) serving this endpoint; sweeps then also show tokens/s/GPU. Null when undeclared. */
    gpuCount: integer('gpu_count'),
    /**
     * Where the catalog read this endpoint's facts (base URL, protocol, API model id, context window):
     * the provider's own documentation and the date it was read (lib/catalog/catalog-schema). Null for
     * submitted endpoints (their owner declares them).
     */
    catalogSource: jsonb('catalog_source').$type<{ url: string; checkedOn: string } | null>(),
    /** When the endpoint was retired (status `retired`); null otherwise. The feed dates the leave by it. */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    /** Scheduler back-off after 429 Retry-After: no probes before this instant. */
    notBefore: timestamp('not_before', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('endpoints_model_idx').on(t.modelId),
    index('endpoints_status_idx').on(t.status),
    // The adapters, the scheduler and the pages read these words and numbers as they are (decision 281).
    check('endpoints_protocol_check', oneOf(t.protocol, PROTOCOLS)),
    check('endpoints_status_check', oneOf(t.status, ENDPOINT_STATUSES)),
    check('endpoints_deployment_kind_check', oneOf(t.deploymentKind, DEPLOYMENT_KINDS)),
    check('endpoints_counts_check', sql`${t.draftLength} > 0 and ${t.contextWindowTokens} > 0 and ${t.gpuCount} > 0`),
  ],
);

/**
 * Dated revisions of an endpoint's declared disclosure (lib/catalog/disclosure, decision 178): one
 * row per change of any declared field (hardware, GPUs, engine, precision, speculative decoding,
 * tier, region, system, context window, model and API model id), written in the same transaction
 * as the change by every edit path (catalog seed, submission, owner edit). `number` counts 1, 2, …
 * per endpoint; `effectiveFrom` is when the values took effect (the change's commit time; a
 * `backfill` revision records values already in force when revisions began). `changedByUserId` is
 * null for the catalog and the CLI. Append-only.
 */
export const disclosureRevisions = pgTable(
  'disclosure_revisions',
  {
    id: serial('id').primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => endpoints.id),
    number: integer('number').notNull(),
    effectiveFrom: timestamp('effective_from', { withTimezone: true }).notNull().defaultNow(),
    source: text('source', { enum: ['catalog', 'submission', 'owner_edit', 'admin', 'backfill'] }).notNull(),
    changedByUserId: text('changed_by_user_id'),
    values: jsonb('values').$type<DisclosureValues>().notNull(),
    /** The fields that differ from the previous revision (all declared ones on revision 1). */
    changedFields: text('changed_fields')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [uniqueIndex('disclosure_revisions_endpoint_number_uq').on(t.endpointId, t.number)],
);

/** What a probe sends: prompt category, input length target, output budget, concurrency. */
export const workloads = pgTable(
  'workloads',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    category: text('category', { enum: WORKLOAD_CATEGORIES }).notNull(),
    inputTokensTarget: integer('input_tokens_target').notNull(),
    maxOutputTokens: integer('max_output_tokens').notNull(),
    concurrency: integer('concurrency').notNull().default(1),
    /** Part of the scheduled grid; how often each runs is lib/probe/cadence's decision. */
    scheduled: boolean('scheduled').notNull().default(false),
    /** One sentence for people (lib/probe/workloads is the source). */
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    check('workloads_category_check', oneOf(t.category, WORKLOAD_CATEGORIES)),
    check('workloads_sizes_check', sql`${t.inputTokensTarget} >= 0 and ${t.maxOutputTokens} > 0 and ${t.concurrency} >= 1`),
  ],
);

/**
 * One probe's result, success or failure, with its timeline (lib/probe/timeline-codec).
 * Partitioned by month of `measured_at` (decision 217, migration 0024): one partition per UTC month
 * (`measurements_pYYYYMM`, made ahead by the ensure-partitions task) plus `measurements_default`, so
 * no insert fails; retention drops whole months and a time-bounded query reads only its months.
 * The primary key is therefore (id, measured_at); `id` alone is still unique (one sequence).
 * `jobKey` is unique through `measurement_job_keys` (a trigger claims the key on every insert):
 * a retried or duplicated job never writes twice.
 */
export const measurements = pgTable(
  'measurements',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    jobKey: text('job_key').notNull(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => endpoints.id),
    workloadId: integer('workload_id')
      .notNull()
      .references(() => workloads.id),
    measuredAt: timestamp('measured_at', { withTimezone: true }).notNull(),
    workerRegion: text('worker_region').notNull(),
    workerVersion: text('worker_version').notNull(),
    outcome: text('outcome', { enum: OUTCOMES }).notNull(),
    errorKind: text('error_kind'),
    errorMessage: text('error_message'),
    httpStatus: integer('http_status'),
    connectMs: doublePrecision('connect_ms'),
    ttfbMs: doublePrecision('ttfb_ms'),
    ttftMs: doublePrecision('ttft_ms'),
    ttfatMs: doublePrecision('ttfat_ms'),
    e2eMs: doublePrecision('e2e_ms'),
    outputTokensReported: integer('output_tokens_reported'),
    outputTokensO200k: integer('output_tokens_o200k'),
    outputTokensPerSecond: doublePrecision('output_tokens_per_second'),
    outputTokensPerSecondO200k: doublePrecision('output_tokens_per_second_o200k'),
    tpotMs: doublePrecision('tpot_ms'),
    contentChunks: integer('content_chunks').notNull().default(0),
    finishReason: text('finish_reason'),
    promptHash: text('prompt_hash'),
    timeline: bytea('timeline'),
    flags: jsonb('flags')
      .$type<Record<string, boolean>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** False when the worker's event loop was too delayed to trust the timing (kept, not ranked). */
    valid: boolean('valid').notNull().default(true),
    invalidReason: text('invalid_reason'),
    eventLoopDelayP99Ms: doublePrecision('event_loop_delay_p99_ms'),
    /**
     * False when the measurement is kept but left out of every median, rank, tie band, history and
     * change point; the reasons (lib/probe NOT_RANKABLE_REASONS) say why. See decision 060.
     */
    rankable: boolean('rankable').notNull().default(true),
    notRankableReasons: text('not_rankable_reasons')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * What the probe saw that explains a flag (lib/probe ProbeEvidence): e.g. unrecognizedPaths
     * (JSON paths of non-empty fields the adapter does not know). Decision 061.
     */
    evidence: jsonb('evidence')
      .$type<{
        unrecognizedPaths?: string[];
        reasoningTokensReported?: number;
        reasoningTokensHidden?: number;
        reasoningWithheld?: true;
        timing?: MeasurementTimingEvidence;
        delivered?: DeliveredEvidence;
      }>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** From a Retry-After header (or an in-band retry hint) of a failed response, ms. */
    retryAfterMs: integer('retry_after_ms'),
    /** Chunk-aware inter-token latency of this stream, token-weighted p50/p95 (lib/probe/inter-token-latency), ms/token. */
    itlP50Ms: doublePrecision('itl_p50_ms'),
    itlP95Ms: doublePrecision('itl_p95_ms'),
    /**
     * Fidelity probes only (lib/fidelity): the check kind (`arithmetic`, `code_output`,
     * `json_schema`, `nonce_recall`; null for an ordinary probe), its verdict (null when the probe
     * failed before any answer) and evidence { expected, got, failures }.
     */
    fidelityCheck: text('fidelity_check'),
    fidelityPassed: boolean('fidelity_passed'),
    fidelityDetail: jsonb('fidelity_detail').$type<Record<string, unknown>>(),
    /** The streamed answer text of a fidelity probe, capped at 16 KB (UTF-8); null otherwise. */
    answerText: text('answer_text'),
    /**
     * Reasoning tokens the provider reported (usage) but did not stream (hidden reasoning; 0 when
     * reasoning text was streamed); null when not reported. Included in outputTokensReported, taken
     * out of the reported speed basis (decision 065), absent from the o200k count.
     */
    reasoningTokensHidden: integer('reasoning_tokens_hidden'),
    /**
     * The error bound (lib/probe/timing-bound.ts, decision 180): TTFT and E2E may be this much too
     * high (ms; never too low), output speed off by this much either way (%). Null when unknown
     * (no evidence: not rankable, `timing_uncertain`), when the figure is absent, and on rows
     * written before the bound existed (their `valid` / `event_loop_stall` still say what they said).
     * The details (per-stamp lateness, run-queue wait, GC, coalescing) are `evidence.timing`.
     */
    /**
     * Input tokens the provider reported serving from its prompt cache (lib/probe/adapters/cached-input:
     * `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`, Gemini
     * `cachedContentTokenCount`, Responses `input_tokens_details.cached_tokens`); null when the
     * stream reported no cache count. Issue 25, decision 260.
     */
    cachedInputTokens: integer('cached_input_tokens'),
    /** Input tokens the provider reported writing to its prompt cache (Anthropic, Bedrock); null when not reported. */
    cacheWriteInputTokens: integer('cache_write_input_tokens'),
    /**
     * Input (prompt) tokens the provider reported for the request, cached ones included
     * (lib/probe/adapters/cached-input: Chat `prompt_tokens`, Responses `input_tokens`, Anthropic
     * and Bedrock the input count plus both cache counts, Gemini `promptTokenCount`); null when the
     * stream reported none. The denominator of the cached share of the prompt (decision 290).
     */
    inputTokensReported: integer('input_tokens_reported'),
    /**
     * Whether this measurement met its endpoint's tier objective as declared when it was measured
     * (lib/probe/service-tier judgeTierObjective): 1 met, 0 missed, null when the endpoint declared
     * no objective or the probe gave nothing to judge. Attainment (the share of rankable 1s) is a
     * window figure of the one engine (WINDOW_METRICS `tierObjectiveMet`). Decision 263.
     */
    tierObjectiveMet: smallint('tier_objective_met'),
    ttftBoundMs: doublePrecision('ttft_bound_ms'),
    e2eBoundMs: doublePrecision('e2e_bound_ms'),
    speedBoundPct: doublePrecision('speed_bound_pct'),
    /**
     * The endpoint's disclosure revision in force when this measurement was stored
     * (disclosure_revisions.id, decision 178); null on rows written before revisions were kept.
     */
    disclosureRevisionId: integer('disclosure_revision_id').references(() => disclosureRevisions.id),
  },
  (t) => [
    primaryKey({ name: 'measurements_pkey', columns: [t.id, t.measuredAt] }),
    index('measurements_endpoint_time_idx').on(t.endpointId, t.measuredAt),
    index('measurements_workload_time_idx').on(t.workloadId, t.measuredAt),
    index('measurements_fidelity_idx')
      .on(t.endpointId, t.workloadId, t.measuredAt)
      .where(sql`fidelity_check IS NOT NULL`),
    // What every reader of a measurement relies on (decision 281): the words are the lib/ lists,
    // a failure has its kind and a success none, rankable means no stored reason, a failure is
    // never rankable, counts and error bounds are never negative.
    check('measurements_outcome_check', oneOf(t.outcome, OUTCOMES)),
    check('measurements_error_kind_check', sql`${oneOf(t.errorKind, ERROR_KINDS)} and (${t.outcome} = 'error') = (${t.errorKind} is not null)`),
    check(
      'measurements_rankable_check',
      sql`${allOf(t.notRankableReasons, NOT_RANKABLE_REASONS)} and ${t.rankable} = (cardinality(${t.notRankableReasons}) = 0) and (not ${t.rankable} or ${t.outcome} = 'success')`,
    ),
    check(
      'measurements_fidelity_check',
      sql`${oneOf(t.fidelityCheck, FIDELITY_CHECK_KINDS)} and (${t.fidelityCheck} is not null or ${t.fidelityPassed} is null)`,
    ),
    check(
      'measurements_counts_check',
      sql`${t.contentChunks} >= 0 and ${t.outputTokensReported} >= 0 and ${t.outputTokensO200k} >= 0 and ${t.reasoningTokensHidden} >= 0 and ${t.cachedInputTokens} >= 0 and ${t.cacheWriteInputTokens} >= 0`,
    ),
    // a reported prompt size is a count (decision 290)
    check('measurements_input_tokens_reported_check', sql`${t.inputTokensReported} >= 0`),
    check('measurements_bounds_check', sql`${t.ttftBoundMs} >= 0 and ${t.e2eBoundMs} >= 0 and ${t.speedBoundPct} >= 0`),
    // a tier verdict is 1 or 0, and only a success is judged (decision 263)
    check('measurements_tier_objective_met_check', sql`${t.tierObjectiveMet} in (0, 1) and (${t.tierObjectiveMet} is null or ${t.outcome} = 'success')`),
  ],
);

/**
 * The job key of every measurement (decision 217): a unique index on a partitioned table must
 * include the partition key, so `measurements.job_key` is kept unique here instead. The trigger
 * `measurements_claim_job_key` (migration 0024) inserts the key before each measurement row and
 * refuses a duplicate (unique_violation on `measurements_job_key_unique`);
 * `measurements_release_job_keys` removes the keys of rows deleted through `measurements`.
 * `measuredAt` is the measurement's, so retention can drop the keys of the months it drops.
 */
export const measurementJobKeys = pgTable(
  'measurement_job_keys',
  {
    jobKey: text('job_key').primaryKey(),
    measuredAt: timestamp('measured_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('measurement_job_keys_time_idx').on(t.measuredAt)],
);

/**
 * One row per probe slot that a worker has claimed. A slot (endpoint × workload × region × time
 * slot) runs once even when several workers or duplicate jobs see it; a pg-boss retry of the same
 * job may re-claim its own slot.
 */
export const probeSlots = pgTable('probe_slots', {
  jobKey: text('job_key').primaryKey(),
  bossJobId: text('boss_job_id').notNull(),
  workerId: text('worker_id').notNull(),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Hourly and daily aggregates per endpoint × workload × region (rebuildable from measurements).
 * Figures come from the mergeable `sketches` of rankable measurements (the one engine,
 * lib/stats/window-stats); the per-bucket percentile column `stats` was dropped (0022: never read).
 */
export const measurementRollups = pgTable(
  'measurement_rollups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    granularity: text('granularity', { enum: GRANULARITIES }).notNull(),
    bucketStart: timestamp('bucket_start', { withTimezone: true }).notNull(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => endpoints.id),
    workloadId: integer('workload_id')
      .notNull()
      .references(() => workloads.id),
    workerRegion: text('worker_region').notNull(),
    count: integer('count').notNull(),
    successes: integer('successes').notNull(),
    /** Failure counts by error kind. */
    errorKinds: jsonb('error_kinds').$type<Record<string, number>>().notNull(),
    /**
     * Mergeable log-bucket sketches per metric (DDSketch-style, 1 % relative accuracy) so a
     * window's percentiles come from merging buckets instead of rescanning raw measurements.
     */
    sketches: jsonb('sketches').$type<Record<string, Record<string, number>>>().notNull(),
    /**
     * Bucket function of `sketches` (lib/stats/sketch SKETCH_VERSION): 1 = α 1 %, 2 = α 0.05 %
     * (decision 070). Older rows are re-keyed on read and rebuilt from raw by the rollup job.
     */
    sketchVersion: smallint('sketch_version').notNull().default(1),
    /** Measurements of the bucket left out of every figure: { total, byReason: { reason: count } } (decision 060). */
    notRankable: jsonb('excluded')
      .$type<{ total: number; byReason: Record<string, number> }>()
      .notNull()
      .default(sql`'{"total":0,"byReason":{}}'::jsonb`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rollups_bucket_uq').on(t.granularity, t.bucketStart, t.endpointId, t.workloadId, t.workerRegion),
    check('rollups_granularity_check', oneOf(t.granularity, GRANULARITIES)),
    check('rollups_counts_check', sql`${t.successes} >= 0 and ${t.successes} <= ${t.count}`),
    index('rollups_time_idx').on(t.granularity, t.bucketStart),
    /** Rows still to rebuild with the current sketch version (the rollup job's upgrade backlog). */
    index('rollups_stale_sketch_idx')
      .on(t.granularity, t.bucketStart)
      .where(sql`sketch_version < 2`),
  ],
);

/** Vendor or press figures, stored with source and bound; shown apart from measurements. */
export const claims = pgTable(
  'claims',
  {
    id: serial('id').primaryKey(),
    subject: text('subject').notNull(),
    providerName: text('provider_name').notNull(),
    providerId: integer('provider_id').references(() => providers.id),
    /** The serving system the claim is about (claims file `system`); matched to endpoints.system. */
    system: text('system'),
    modelName: text('model_name').notNull(),
    modelId: integer('model_id').references(() => models.id),
    metric: text('metric').notNull(),
    value: doublePrecision('value').notNull(),
    unit: text('unit').notNull(),
    /** eq (exact), lt (upper bound), gt (lower bound), approx */
    bound: text('bound').notNull(),
    measuredBy: text('measured_by'),
    claimDate: text('claim_date').notNull(),
    sourceKey: text('source_key').notNull(),
    sourceTitle: text('source_title'),
    sourcePublisher: text('source_publisher'),
    sourceUrl: text('source_url'),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('claims_natural_uq').on(t.subject, t.metric, t.claimDate, t.sourceKey)],
);

/** An imported third-party dataset (e.g. LLMPerf leaderboard raw data), with provenance and licence. */
export const datasets = pgTable('datasets', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  source: text('source').notNull(),
  sourceUrl: text('source_url'),
  sourceCommit: text('source_commit'),
  licence: text('licence').notNull(),
  collectedOn: text('collected_on'),
  description: text('description'),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One series of a dataset (one provider × model file), with its summary statistics. */
export const datasetSeries = pgTable(
  'dataset_series',
  {
    id: serial('id').primaryKey(),
    datasetId: integer('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    providerName: text('provider_name').notNull(),
    modelName: text('model_name').notNull(),
    /** Summary per metric in the units its name says (ttftMs, e2eMs, outputTokensPerSecond, ...). */
    summary: jsonb('summary').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [uniqueIndex('dataset_series_uq').on(t.datasetId, t.slug)],
);

/** Per-request rows of an imported dataset series. */
export const datasetRows = pgTable(
  'dataset_rows',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    seriesId: integer('series_id')
      .notNull()
      .references(() => datasetSeries.id, { onDelete: 'cascade' }),
    rowIndex: integer('row_index').notNull(),
    ttftMs: doublePrecision('ttft_ms'),
    e2eMs: doublePrecision('e2e_ms'),
    interTokenLatencyMs: doublePrecision('inter_token_latency_ms'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    /** Output speed excluding TTFT: (outputTokens − 1) ÷ (e2e − ttft). */
    outputTokensPerSecond: doublePrecision('output_tokens_per_second'),
    /** LLMPerf's own request_output_throughput_token_per_s: outputTokens ÷ e2e, INCLUDES TTFT. */
    llmperfThroughputTokensPerSecond: doublePrecision('llmperf_throughput_tokens_per_second'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
  },
  (t) => [uniqueIndex('dataset_rows_uq').on(t.seriesId, t.rowIndex)],
);

/** Immutable leaderboard answers for citation: the exact JSON body, stored once. */
export const snapshots = pgTable('snapshots', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull(),
  query: jsonb('query').$type<Record<string, unknown>>().notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
});

/**
 * Answers computed once per change (workers/tasks/precompute-answers.ts, decision 120): the most-read
 * leaderboard answers (each listed model × workload × default window × basis), with their strong
 * ETag. One row per question (`key`), replaced when a newer `asOf` is computed. The exact JSON text
 * served is the body of its snapshot (`snapshotId`, the hash of that text; written in the same
 * transaction), stored once (decision 314: a second copy here cost the hour's minute ~1.5 s at 200
 * endpoints); the web serves it as bytes. `contentHash` is the answer's content without its
 * `snapshotId` and `asOf` (server/leaderboard-answers answerContentHash, decision 300); null in rows
 * written before it existed (then read from the body).
 */
export const precomputedAnswers = pgTable('precomputed_answers', {
  key: text('key').primaryKey(),
  kind: text('kind').notNull(),
  asOf: timestamp('as_of', { withTimezone: true }).notNull(),
  snapshotId: text('snapshot_id')
    .notNull()
    .references(() => snapshots.id),
  etag: text('etag').notNull(),
  contentHash: text('content_hash'),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Pre-merged window partials (decision 210, lib/stats/window-partials): per aligned span (10 min,
 * 1 h, 6 h, 1 day, 7 days, 28 days; `span_minutes`), workload, model and region key (`*` = all
 * worker regions merged, else one region), one binary body holding every endpoint's counts and
 * sketches. Built from raw measurements (10 min) and from the span below (the rest) by
 * db/queries/window-partials; a window at any instant is a few dozen of these plus ≤ 10 minutes of
 * raw rows. Buckets without probes have no row.
 */
export const windowPartials = pgTable(
  'window_partials',
  {
    spanMinutes: integer('span_minutes').notNull(),
    workloadId: integer('workload_id')
      .notNull()
      .references(() => workloads.id),
    modelId: integer('model_id')
      .notNull()
      .references(() => models.id),
    regionKey: text('region_key').notNull(),
    bucketStart: timestamp('bucket_start', { withTimezone: true }).notNull(),
    body: bytea('body').notNull(),
    builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workloadId, t.modelId, t.regionKey, t.spanMinutes, t.bucketStart] })],
);

/**
 * The time range [from_at, to_at) whose window partials are complete (one row, id = 1): windows
 * inside it are answered from partials, others from rollups (decision 210). `to_at` is the
 * instant the newest build read up to; `version` counts builds (the data version of answers, decision 211).
 */
export const windowPartialCoverage = pgTable('window_partial_coverage', {
  id: smallint('id').primaryKey().default(1),
  fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
  toAt: timestamp('to_at', { withTimezone: true }).notNull(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Where the per-minute rollup job left off (one row, id = 1; decision 217): the newest measurement
 * ids it had seen at its last few runs, newest last. A run rebuilds only the buckets holding
 * measurements with an id above the oldest of them (a few runs back, so a row whose insert
 * committed after a run read the table is still found), instead of the last two hours.
 */
export const rollupProgress = pgTable('rollup_progress', {
  id: smallint('id').primaryKey().default(1),
  seenMaxIds: bigint('seen_max_ids', { mode: 'number' }).array().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The data version of answers (decision 215): one row per change of an answer's inputs, written
 * after those inputs are (rollups and partials rebuilt, precomputed answers stored, a dispute
 * ruled). `version` (max = the current version) keys the one answer cache of every instance;
 * `[changed_from, changed_to]` is the measured-time range whose figures may have changed (null =
 * anything), so a cached past answer whose window lies outside every later change stays valid;
 * `live_as_of` is the minute whose live answers are stored in precomputed_answers as of this
 * version (null: none is current, live answers are computed). Old rows are pruned by the rollup job.
 */
export const dataChanges = pgTable('data_changes', {
  version: bigserial('version', { mode: 'number' }).primaryKey(),
  source: text('source').notNull(),
  changedFrom: timestamp('changed_from', { withTimezone: true }),
  changedTo: timestamp('changed_to', { withTimezone: true }),
  liveAsOf: timestamp('live_as_of', { withTimezone: true }),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

// ─── Accounts (better-auth tables; lib/auth/auth.ts maps its models onto these) ───────────────────

/** A person with an account. `role` is 'provider' (default) or 'admin' (granted by `tokenpace admin grant`). */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  role: text('role', { enum: ['provider', 'admin'] })
    .notNull()
    .default('provider'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A signed-in browser session (better-auth); `token` is the cookie's value. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Credentials of a user (better-auth "account"): for email + password, `password` holds the scrypt hash. */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('accounts_user_idx').on(t.userId)],
);

/** One-time verification values (email verification, password reset) of better-auth. */
export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);

/**
 * Personal API tokens for programmatic submission. Only the SHA-256 of the token is stored; the
 * token itself is shown once at creation. Revoked tokens keep their row (revokedAt set).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 hex of the whole token. */
    tokenHash: text('token_hash').notNull().unique(),
    /** First characters of the token (e.g. "tp_3f9a…"), so a person can tell tokens apart. */
    prefix: text('prefix').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_tokens_user_idx').on(t.userId)],
);

/**
 * Submission bookkeeping per endpoint submitted by a provider: who reviewed it, why it was
 * rejected, whether it was deleted by its owner (soft delete: measurements stay as evidence).
 */
export const endpointSubmissions = pgTable(
  'endpoint_submissions',
  {
    endpointId: integer('endpoint_id')
      .primaryKey()
      .references(() => endpoints.id),
    ownerUserId: text('owner_user_id')
      .notNull()
      .references(() => users.id),
    /** True when the submitter proposed a model that was not in the catalog. */
    proposedModel: boolean('proposed_model').notNull().default(false),
    /** True when the submitter named a provider that was not in the catalog. */
    proposedProvider: boolean('proposed_provider').notNull().default(false),
    /**
     * How the provider name is backed (lib/security/provider-claim, decision 162): new_provider,
     * verified_domain (verified email at the provider's website domain), unverified (an admin must
     * link it to approve), admin_linked (an admin did, recorded in the audit log).
     */
    providerClaim: text('provider_claim', { enum: ['new_provider', 'verified_domain', 'unverified', 'admin_linked'] })
      .notNull()
      .default('unverified'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedByUserId: text('reviewed_by_user_id').references(() => users.id),
    rejectionReason: text('rejection_reason'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * Version of the submission an admin reviews: 1 at submission, +1 on every owner edit. An
     * approval or rejection names the revision it was made on and fails if the owner changed the
     * submission since (decision record 086).
     */
    revision: integer('revision').notNull().default(1),
  },
  (t) => [index('endpoint_submissions_owner_idx').on(t.ownerUserId)],
);

/** Result of a verification probe run on submission or edit (not a ranked measurement). */
export const endpointVerifications = pgTable(
  'endpoint_verifications',
  {
    id: serial('id').primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => endpoints.id),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    outcome: text('outcome', { enum: OUTCOMES }).notNull(),
    errorKind: text('error_kind'),
    errorMessage: text('error_message'),
    httpStatus: integer('http_status'),
    ttftMs: doublePrecision('ttft_ms'),
    e2eMs: doublePrecision('e2e_ms'),
    outputTokens: integer('output_tokens'),
    outputTokensPerSecond: doublePrecision('output_tokens_per_second'),
  },
  (t) => [index('endpoint_verifications_endpoint_idx').on(t.endpointId, t.startedAt)],
);

/** Append-only log of account and moderation actions (approve, reject, grant admin, token, edits). */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Acting user; null for the CLI (operator on the machine). */
    actorUserId: text('actor_user_id').references(() => users.id),
    action: text('action').notNull(),
    endpointId: integer('endpoint_id').references(() => endpoints.id),
    targetUserId: text('target_user_id').references(() => users.id),
    reason: text('reason'),
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [index('audit_events_endpoint_idx').on(t.endpointId), index('audit_events_at_idx').on(t.at)],
);

/** Rate-limit counters shared by every web process (rate-limiter-flexible RateLimiterDrizzle). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});

/**
 * Weekly public data dumps (decision 077): one row per dump of all measurements with
 * from <= measured_at < until, a gzip CSV whose bytes live in dump_chunks (so every web instance
 * sharing this database serves them, streamed chunk by chunk). A dump is written in one
 * transaction: a row here always has all its chunks. sha256 and bytes are of the gzip file.
 */
export const dumps = pgTable(
  'dumps',
  {
    id: serial('id').primaryKey(),
    fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
    untilAt: timestamp('until_at', { withTimezone: true }).notNull(),
    rows: integer('rows').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** Columns with units and sources, row count, checksums: served as the dump manifest. */
    manifest: jsonb('manifest').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dumps_period_idx').on(t.fromAt, t.untilAt)],
);

/** The gzip bytes of a dump in order (seq 0, 1, …), at most 1 MiB each. */
export const dumpChunks = pgTable(
  'dump_chunks',
  {
    dumpId: integer('dump_id')
      .notNull()
      .references(() => dumps.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [uniqueIndex('dump_chunks_pk_idx').on(t.dumpId, t.seq)],
);

/**
 * One row per live worker process, refreshed every 15 s (workers/heartbeat.ts). /api/health lists
 * the rows seen within the last 60 s; /metrics merges their `metrics` (prom-client JSON of the
 * worker-local registry) at scrape time. Rows of stopped workers are deleted on clean shutdown and
 * pruned after a day otherwise.
 */
export const workerHeartbeats = pgTable(
  'worker_heartbeats',
  {
    /** host:pid, the same id the worker writes into probe_slots.worker_id */
    workerId: text('worker_id').primaryKey(),
    pid: integer('pid').notNull(),
    host: text('host').notNull(),
    region: text('region').notNull(),
    /** Process role (workers/task.ts): 'probe' (times probes, nothing else) or 'jobs' (rollups, answers, dumps, sweep dispatch). */
    role: text('role').notNull().default('probe'),
    version: text('version').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    lastHeartbeatAt: timestamp('last_heartbeat_at', { withTimezone: true }).notNull(),
    metrics: jsonb('metrics')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (t) => [index('worker_heartbeats_last_idx').on(t.lastHeartbeatAt)],
);

/**
 * An endpoint's consent to concurrency sweeps (issue 15) and its limits. The owner (or an admin)
 * enables sweeps and requests limits (`maxConcurrency`, `durationMs`, `maxLevels`; who and when in
 * `consentedByUserId`/`consentedAt`); an admin consents to limits (`approved*`, who and when in
 * `approvedByUserId`/`approvedAt`) for the endpoint's URL at that moment (`approvedBaseUrl`). A
 * sweep runs only on an active endpoint whose row is enabled and whose requested limits lie within
 * the admin's, for the same URL (lib/sweep/sweep-consent.ts, decisions 103 and 160).
 */
export const sweepSettings = pgTable('sweep_settings', {
  endpointId: integer('endpoint_id')
    .primaryKey()
    .references(() => endpoints.id),
  enabled: boolean('enabled').notNull().default(false),
  /** Highest concurrency level a sweep of this endpoint may reach (requested). */
  maxConcurrency: integer('max_concurrency').notNull().default(64),
  /** Steady window per level, ms (requested). */
  durationMs: integer('duration_ms').notNull().default(30000),
  /** Most levels one sweep may run (requested). */
  maxLevels: integer('max_levels').notNull().default(9),
  consentedByUserId: text('consented_by_user_id'),
  consentedAt: timestamp('consented_at', { withTimezone: true }),
  /** The admin who consented to the limits below, and when; null = no admin consent. */
  approvedByUserId: text('approved_by_user_id'),
  approvedAt: timestamp('approved_at', { withTimezone: true }),
  approvedMaxConcurrency: integer('approved_max_concurrency'),
  approvedDurationMs: integer('approved_duration_ms'),
  approvedMaxLevels: integer('approved_max_levels'),
  /** The endpoint URL the admin consented for: a changed URL needs a new consent. */
  approvedBaseUrl: text('approved_base_url'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One concurrency sweep of one endpoint (lib/sweep). At most one queued or running sweep per
 * endpoint (partial unique index), across all workers. Figures per level in sweep_levels; every
 * stream's evidence in sweep_streams.
 */
export const sweeps = pgTable(
  'sweeps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => endpoints.id),
    status: text('status', { enum: ['queued', 'running', 'completed', 'stopped', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    requestedByUserId: text('requested_by_user_id'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    concurrencyLevels: integer('concurrency_levels').array().notNull(),
    durationMs: integer('duration_ms').notNull(),
    warmUpMs: integer('warm_up_ms').notNull(),
    maxOutputTokens: integer('max_output_tokens').notNull(),
    objectiveTtftMs: doublePrecision('objective_ttft_ms').notNull(),
    objectiveTpotMs: doublePrecision('objective_tpot_ms').notNull(),
    minSuccessRate: doublePrecision('min_success_rate').notNull(),
    /** The endpoint's declared GPU count when the sweep ran (per-GPU figures), null if undeclared. */
    gpuCount: integer('gpu_count'),
    /** rate_limited | low_success_rate | invalid_measurements | cancelled | blocked | consecutive_failures | error_rate | request_budget (lib/sweep SweepStopReason) */
    stopReason: text('stop_reason'),
    stoppedAtConcurrency: integer('stopped_at_concurrency'),
    errorMessage: text('error_message'),
    /** Level currently running (live progress), and how many streams have ended. */
    currentConcurrency: integer('current_concurrency'),
    streamsDone: integer('streams_done').notNull().default(0),
    workerRegion: text('worker_region'),
    workerVersion: text('worker_version'),
  },
  (t) => [
    index('sweeps_endpoint_time_idx').on(t.endpointId, t.requestedAt),
    uniqueIndex('sweeps_one_active_per_endpoint_uq')
      .on(t.endpointId)
      .where(sql`status IN ('queued', 'running')`),
  ],
);

/** Figures of one level of a sweep (lib/sweep SweepLevelResult). Rates are per second of the level's steady window. */
export const sweepLevels = pgTable(
  'sweep_levels',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sweepId: bigint('sweep_id', { mode: 'number' })
      .notNull()
      .references(() => sweeps.id),
    levelIndex: integer('level_index').notNull(),
    concurrency: integer('concurrency').notNull(),
    requests: integer('requests').notNull(),
    successes: integer('successes').notNull(),
    errorKinds: jsonb('error_kinds')
      .$type<Record<string, number>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** p5/p25/p50/p75/p95 (lib/sweep PercentileSet) or null */
    outputTokensPerSecond: jsonb('output_tokens_per_second_per_user').$type<SweepPercentiles | null>(),
    ttftMs: jsonb('ttft_ms').$type<SweepPercentiles | null>(),
    tpotMs: jsonb('tpot_ms').$type<SweepPercentiles | null>(),
    aggregateOutputTokensPerSecond: doublePrecision('aggregate_output_tokens_per_second').notNull(),
    completedRequestsPerSecond: doublePrecision('completed_requests_per_second').notNull(),
    goodputRequestsPerSecond: doublePrecision('goodput_requests_per_second').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true, precision: 3 }).notNull(),
    windowDurationMs: doublePrecision('window_duration_ms').notNull(),
    streams: jsonb('streams').$type<{ warmup: number; measured: number; tail: number }>().notNull(),
    eventLoopDelayP99Ms: doublePrecision('event_loop_delay_p99_ms').notNull(),
    valid: boolean('valid').notNull(),
    stopReason: text('stop_reason'),
    /**
     * Failed streams of the level that were counted (`errorKinds`, `streams`) but not stored as
     * sweep_streams rows: a level stores at most a bounded number of failed streams (decision 160).
     */
    failedStreamsNotStored: integer('failed_streams_not_stored').notNull().default(0),
  },
  (t) => [
    uniqueIndex('sweep_levels_sweep_level_uq').on(t.sweepId, t.levelIndex),
    check('sweep_levels_counts_check', sql`${t.concurrency} >= 1 and ${t.successes} >= 0 and ${t.successes} <= ${t.requests}`),
  ],
);

/**
 * Every stream of a sweep, kept as evidence like a measurement (same fields and timeline codec),
 * but in its own table so concurrency > 1 streams can never enter the concurrency-1 rankings,
 * rollups or retention of `measurements`. Decision 102.
 */
export const sweepStreams = pgTable(
  'sweep_streams',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sweepId: bigint('sweep_id', { mode: 'number' })
      .notNull()
      .references(() => sweeps.id),
    sweepLevelId: bigint('sweep_level_id', { mode: 'number' })
      .notNull()
      .references(() => sweepLevels.id),
    slot: integer('slot').notNull(),
    /** warmup | measured | tail (lib/sweep SweepPhase) */
    phase: text('phase', { enum: ['warmup', 'measured', 'tail'] }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    outcome: text('outcome', { enum: OUTCOMES }).notNull(),
    errorKind: text('error_kind'),
    errorMessage: text('error_message'),
    httpStatus: integer('http_status'),
    ttfbMs: doublePrecision('ttfb_ms'),
    ttftMs: doublePrecision('ttft_ms'),
    e2eMs: doublePrecision('e2e_ms'),
    outputTokensReported: integer('output_tokens_reported'),
    outputTokensO200k: integer('output_tokens_o200k'),
    outputTokensPerSecond: doublePrecision('output_tokens_per_second'),
    tpotMs: doublePrecision('tpot_ms'),
    contentChunks: integer('content_chunks').notNull().default(0),
    finishReason: text('finish_reason'),
    timeline: bytea('timeline'),
    flags: jsonb('flags')
      .$type<Record<string, boolean>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [index('sweep_streams_level_idx').on(t.sweepLevelId), index('sweep_streams_sweep_idx').on(t.sweepId)],
);

/** p5/p25/p50/p75/p95 of a sweep level figure (mirrors lib/sweep PercentileSet). */
export interface SweepPercentiles {
  p5: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
}

/**
 * Ed25519 keys that sign snapshots, dumps and manifests (decision 230). The newest key without
 * `valid_until` signs; retired keys stay so that what they signed still verifies. The private key
 * is encrypted like provider API keys (AES-256-GCM under TOKENPACE_SECRET_KEY); the public key is
 * served at /.well-known/tokenpace-keys.json.
 */
export const signingKeys = pgTable(
  'signing_keys',
  {
    id: text('id').primaryKey(),
    publicKeyPem: text('public_key_pem').notNull(),
    privateKeyEnc: text('private_key_enc').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
    validUntil: timestamp('valid_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('signing_keys_one_current_idx')
      .on(sql`(true)`)
      .where(sql`${t.validUntil} is null`),
  ],
);

/**
 * Disputes (decision 232): an endpoint's owner or an admin contests a measurement, a window or a
 * change point with a reason and evidence; an admin accepts, rejects or annotates it. An accepted
 * dispute with `exclude` leaves the measurements it covers out of every figure (reason `disputed`)
 * without touching them: measurements stay append-only. Public, with its outcome.
 */
export const disputes = pgTable(
  'disputes',
  {
    id: serial('id').primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => endpoints.id),
    openedByUserId: text('opened_by_user_id').references(() => users.id),
    scope: text('scope', { enum: ['measurement', 'window', 'change_point'] }).notNull(),
    /** the disputed measurement (scope measurement) */
    measurementId: bigint('measurement_id', { mode: 'number' }),
    /** the covered period [from, until): the measurement's instant, the window, or the days around a change point */
    fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
    untilAt: timestamp('until_at', { withTimezone: true }).notNull(),
    reason: text('reason').notNull(),
    evidence: text('evidence'),
    links: jsonb('links')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    status: text('status', { enum: ['open', 'accepted', 'rejected', 'annotated'] })
      .notNull()
      .default('open'),
    exclude: boolean('exclude').notNull().default(false),
    resolution: text('resolution'),
    resolvedByUserId: text('resolved_by_user_id').references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('disputes_endpoint_idx').on(t.endpointId, t.fromAt),
    check('disputes_period_check', sql`${t.untilAt} > ${t.fromAt}`),
    check('disputes_measurement_check', sql`(${t.scope} = 'measurement') = (${t.measurementId} is not null)`),
    check('disputes_exclude_check', sql`not ${t.exclude} or ${t.status} = 'accepted'`),
  ],
);

/**
 * Annotations of windows (decision 232): an admin's note on a period, of one endpoint or of all
 * (`endpoint_id` null, e.g. "our eu worker lost its network 10:00-10:40"), optionally of one worker
 * region; shown on history charts and in the API so a dip that was ours is not read as the provider's.
 */
export const annotations = pgTable(
  'annotations',
  {
    id: serial('id').primaryKey(),
    endpointId: integer('endpoint_id').references(() => endpoints.id),
    workerRegion: text('worker_region'),
    fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
    untilAt: timestamp('until_at', { withTimezone: true }).notNull(),
    text: text('text').notNull(),
    disputeId: integer('dispute_id').references(() => disputes.id),
    createdByUserId: text('created_by_user_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('annotations_period_idx').on(t.fromAt), check('annotations_period_check', sql`${t.untilAt} > ${t.fromAt}`)],
);
