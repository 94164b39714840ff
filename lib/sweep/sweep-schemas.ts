/**
 * zod schemas of sweeps at the API edge: the request bodies (consent settings, a sweep request)
 * and the public answers (GET /api/v1/endpoints/{id}/sweeps, GET /api/v1/sweeps/{id}, their CSV).
 * Every field is described (units, source) for the OpenAPI document.
 */
import { deprecatedAlias } from '@/lib/glossary/deprecated-alias';
import { z } from 'zod';
import { percentilesSchema } from '../api/response-schemas';
import { ERROR_KINDS } from '../probe/types';
import { DEFAULT_LATENCY_OBJECTIVE } from './summarize-level';
import { DEFAULT_CONCURRENCY_LEVELS, DEFAULT_MIN_SUCCESS_RATE, MAX_SWEEP_CONCURRENCY } from './run-sweep';
import { MAX_SWEEP_LEVELS, MAX_WORKER_SWEEP_CONCURRENCY } from './sweep-consent';

/** Longest steady window per level an owner may set, ms. */
export const MAX_SWEEP_DURATION_MS = 300_000;

/** PUT /api/v1/endpoints/{id}/sweep-settings: the owner's (or an admin's) consent and limits. */
export const updateSweepSettingsBodySchema = z
  .object({
    enabled: z
      .boolean()
      .meta({ description: 'Consent to concurrency sweeps of this endpoint (false withdraws it; a running sweep stops after its current level).' }),
    maxConcurrency: z
      .number()
      .int()
      .min(1)
      .max(MAX_WORKER_SWEEP_CONCURRENCY)
      .meta({
        description: `Highest concurrency a sweep may reach (1-${MAX_WORKER_SWEEP_CONCURRENCY}); for shared APIs, within the published rate limit. Sweeps run only within limits an admin consented to.`,
      }),
    durationS: z
      .number()
      .int()
      .min(5)
      .max(MAX_SWEEP_DURATION_MS / 1000)
      .meta({ description: 'Steady window per level, seconds (5-300).' }),
    maxLevels: z
      .number()
      .int()
      .min(1)
      .max(MAX_SWEEP_LEVELS)
      .optional()
      .meta({ description: `Most levels one sweep may run (1-${MAX_SWEEP_LEVELS}, default 9).` }),
  })
  .strict()
  .meta({ id: 'UpdateSweepSettingsBody', description: 'Consent and limits of sweeps of one endpoint.' });

/** POST /api/v1/endpoints/{id}/sweeps: request one sweep within the endpoint's limits. */
export const createSweepBodySchema = z
  .object({
    concurrency: z
      .array(z.number().int().min(1).max(MAX_SWEEP_CONCURRENCY))
      .min(1)
      .max(16)
      .optional()
      .meta({ description: `Concurrency levels in run order (default ${DEFAULT_CONCURRENCY_LEVELS.join(', ')} up to the endpoint's maxConcurrency).` }),
    maxOutputTokens: z.number().int().min(16).max(4096).optional().meta({ description: 'Output budget per request (default 256).' }),
  })
  .strict()
  .meta({ id: 'CreateSweepBody', description: 'A sweep request; levels above the endpoint’s maxConcurrency are refused.' });

const d = (description: string) => ({ description });

/** GET/POST /api/v1/endpoints/{id}/sweep-settings answer. */
export const sweepSettingsResponseSchema = z
  .object({
    endpointId: z.number().int().meta(d('Endpoint id.')),
    enabled: z.boolean().meta(d('The owner’s (or an admin’s) consent to sweeps.')),
    maxConcurrency: z.number().int().nullable().meta(d('Requested highest concurrency.')),
    durationS: z.number().nullable().meta(d('Requested window per level, s.')),
    maxLevels: z.number().int().nullable().meta(d('Requested most levels per sweep.')),
    consentedByUserId: z.string().nullable().meta(d('Who enabled sweeps last.')),
    consentedAt: z.string().nullable().meta(d('When, ISO 8601 UTC.')),
    adminConsent: z
      .object({
        byUserId: z.string().meta(d('The admin who consented.')),
        at: z.string().nullable().meta(d('When, ISO 8601 UTC.')),
        maxConcurrency: z.number().int().meta(d('Consented highest concurrency.')),
        durationS: z.number().meta(d('Consented window per level, s.')),
        maxLevels: z.number().int().nullable().meta(d('Consented most levels.')),
        baseUrlMatches: z.boolean().meta(d('False when the endpoint’s URL changed since (a new consent is needed).')),
      })
      .nullable()
      .meta(d('An admin’s consent to limits; null when none.')),
    sweepsAllowed: z.boolean().meta(d('Whether a sweep may be requested now.')),
    refusedBecause: z
      .enum(['endpoint_not_approved', 'no_owner_consent', 'no_admin_consent', 'limits_not_consented', 'url_changed', 'outside_limits'])
      .nullable()
      .meta(d('Why not (lib/sweep/sweep-consent); null when allowed.')),
    refusal: z.string().nullable().meta(d('The same, as a sentence.')),
  })
  .meta({ id: 'SweepSettings', description: 'Sweep consent and limits of one endpoint (decision 160).' });

/** One level of a sweep as published. */
export const sweepLevelSchema = z
  .object({
    levelIndex: z.number().int().meta(d('Position of the level in the sweep (0-based).')),
    concurrency: z.number().int().meta(d('Concurrent streams held during the level.')),
    requests: z.number().int().meta(d('Requests started in the steady window.')),
    successes: z.number().int().meta(d('Of those, succeeded.')),
    errorKinds: z
      .partialRecord(z.enum(ERROR_KINDS), z.number().int().meta(d('Failed requests of this kind.')))
      .meta(d('Failed measured requests by error kind.')),
    outputTokensPerSecond: percentilesSchema.meta(d('TPS/user of the measured requests (output speed after the first chunk), tokens/s.')),
    outputTokensPerSecondPerUser: deprecatedAlias(percentilesSchema, 'outputTokensPerSecond'), // alias (decision 280)
    ttftMs: percentilesSchema.meta(d('Time to first token of the measured requests, ms.')),
    tpotMs: percentilesSchema.meta(d('Time per output token of the measured requests, ms/token.')),
    aggregateOutputTokensPerSecond: z.number().meta(d('Output tokens of all streams arriving in the steady window ÷ its length, tokens/s (see /methodology).')),
    aggregateOutputTokensPerSecondPerGpu: z
      .number()
      .nullable()
      .meta(d('aggregateOutputTokensPerSecond ÷ the endpoint’s declared GPU count; null when undeclared.')),
    completedRequestsPerSecond: z.number().meta(d('Requests completed in the steady window ÷ its length, requests/s.')),
    goodputRequestsPerSecond: z
      .number()
      .meta(d('Completed requests that met the latency objective (TTFT and TPOT limits) ÷ window length, requests/s (DistServe goodput; vLLM --goodput).')),
    windowStartedAt: z.string().meta(d('Start of the steady window, ISO 8601 UTC.')),
    windowDurationMs: z.number().meta(d('Length of the steady window, ms.')),
    streams: z
      .object({
        warmup: z.number().int().meta(d('Warm-up streams (before the window).')),
        measured: z.number().int().meta(d('Streams started in the window.')),
        tail: z.number().int().meta(d('Streams that held the concurrency after the window (cancelled when the measured ones ended).')),
      })
      .meta(d('Streams of the level by phase, all kept as evidence.')),
    eventLoopDelayP99Ms: z.number().meta(d('Event-loop delay p99 of the probing process during the level, ms.')),
    valid: z.boolean().meta(d('False when the probing process was too loaded (delay p99 above 20 ms) to trust the timing.')),
    stopReason: z
      .string()
      .nullable()
      .meta(
        d(
          'Set on the level that ended the sweep: rate_limited, low_success_rate, invalid_measurements, cancelled, blocked (SSRF guard), consecutive_failures, error_rate, request_budget.',
        ),
      ),
  })
  .meta({ id: 'SweepLevel', description: 'Figures of one concurrency level of a sweep.' });

/** One sweep as published (without its levels in the list answer). */
export const sweepSchema = z
  .object({
    id: z.number().int().meta(d('Sweep id.')),
    endpointId: z.number().int().meta(d('Endpoint id.')),
    endpointSlug: z.string().meta(d('Endpoint slug.')),
    provider: z.string().meta(d('Provider name.')),
    model: z.string().meta(d('Model name.')),
    status: z
      .enum(['queued', 'running', 'completed', 'stopped', 'failed', 'cancelled'])
      .meta(d('queued, running, completed (every level ran), stopped (ended early, see stopReason), failed, cancelled.')),
    requestedAt: z.string().meta(d('When the sweep was requested, ISO 8601 UTC.')),
    startedAt: z.string().nullable().meta(d('When a worker started it.')),
    finishedAt: z.string().nullable().meta(d('When it ended.')),
    concurrencyLevels: z.array(z.number().int()).meta(d('Levels requested, in run order.')),
    durationMs: z.number().int().meta(d('Steady window per level, ms.')),
    warmUpMs: z.number().int().meta(d('Minimum warm-up per level, ms (each stream also completes one request first).')),
    maxOutputTokens: z.number().int().meta(d('Output budget per request.')),
    objective: z
      .object({
        ttftMs: z.number().meta(d(`TTFT limit of goodput, ms (default ${DEFAULT_LATENCY_OBJECTIVE.ttftMs}, MLPerf Inference v5.0 Llama 2 70B Interactive).`)),
        tpotMs: z.number().meta(d(`TPOT limit of goodput, ms/token (default ${DEFAULT_LATENCY_OBJECTIVE.tpotMs}, same source).`)),
      })
      .meta(d('Latency objective of goodput.')),
    minSuccessRate: z.number().meta(d(`Success-rate floor per level; below it the sweep stops (default ${DEFAULT_MIN_SUCCESS_RATE}).`)),
    gpuCount: z.number().int().nullable().meta(d('GPU count the endpoint declared when the sweep ran; null when undeclared.')),
    stopReason: z
      .string()
      .nullable()
      .meta(
        d(
          'Why the sweep ended early: rate_limited (HTTP 429), low_success_rate, invalid_measurements, cancelled, blocked (SSRF guard), consecutive_failures, error_rate, request_budget (decision 160).',
        ),
      ),
    stoppedAtConcurrency: z.number().int().nullable().meta(d('The level at which it ended early.')),
    currentConcurrency: z.number().int().nullable().meta(d('Level running now (live progress); null when not running.')),
    streamsDone: z.number().int().meta(d('Streams ended so far (live progress).')),
  })
  .meta({ id: 'Sweep', description: 'One concurrency sweep of one endpoint.' });

/** GET /api/v1/sweeps/{id}. */
export const sweepDetailResponseSchema = z
  .object({
    sweep: sweepSchema,
    levels: z.array(sweepLevelSchema).meta(d('Levels that ran, in order.')),
    frontier: z
      .array(z.number().int())
      .meta(d('levelIndex of the levels on this sweep’s Pareto frontier (no other level has both higher aggregate and higher median TPS/user).')),
  })
  .meta({ id: 'SweepDetail', description: 'A sweep with its levels.' });

/** GET /api/v1/endpoints/{id}/sweeps. */
export const endpointSweepsResponseSchema = z
  .object({
    endpointId: z.number().int().meta(d('Endpoint id.')),
    sweeps: z.array(sweepDetailResponseSchema).meta(d('Sweeps of the endpoint, newest first, with their levels.')),
  })
  .meta({ id: 'EndpointSweeps', description: 'History of an endpoint’s sweeps.' });

/** One CSV line: a level with its sweep's identity. */
export const sweepLevelCsvRowSchema = sweepLevelSchema.extend({
  sweepId: z.number().int().meta(d('Sweep id.')),
  endpointId: z.number().int().meta(d('Endpoint id.')),
  sweepStatus: z.string().meta(d('Status of the sweep.')),
});

export type SweepView = z.infer<typeof sweepSchema>;
export type SweepLevelView = z.infer<typeof sweepLevelSchema>;
export type SweepDetailView = z.infer<typeof sweepDetailResponseSchema>;
