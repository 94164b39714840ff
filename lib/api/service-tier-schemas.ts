/**
 * Schemas of an endpoint's service tier and tier objective (decisions 262, 263): the request
 * bodies of submission (POST/PATCH /api/v1/endpoints; 400 naming the field, e.g.
 * `serviceTier.value`), the catalog, and the published answers (endpoint records, leaderboard
 * entries, OpenAPI).
 */
import { z } from 'zod';
import { SERVICE_TIER_PARAMETER_NAMES, checkServiceTier, type ServiceTierDeclaration } from '@/lib/probe/service-tier';
import type { Protocol } from '@/lib/probe/types';

/** A declared tier as submitted: a documented parameter and a value (checked against the protocol by {@link tierProtocolIssue}). */
export const serviceTierInputSchema = z
  .object({
    parameter: z
      .enum(SERVICE_TIER_PARAMETER_NAMES, { error: `one of ${SERVICE_TIER_PARAMETER_NAMES.join(', ')}` })
      .meta({ description: 'The documented request parameter (see serviceTier).' }),
    value: z
      .string({ error: 'required' })
      .trim()
      .min(1, 'required')
      .max(40, 'at most 40 characters')
      .regex(/^[a-z][a-z0-9_-]*$/, 'a documented value such as priority, flex or fast')
      .meta({ description: 'The documented value for that parameter on the endpoint’s protocol (priority, flex, fast, …).' }),
  })
  .strict();

const sourceUrl = z
  .string({ error: 'required: the page where the provider publishes the objective' })
  .trim()
  .min(1, 'required: the page where the provider publishes the objective')
  .max(2048, 'at most 2048 characters')
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an absolute http(s) URL')
  .refine((v) => !URL.canParse(v) || (new URL(v).username === '' && new URL(v).password === ''), 'must not contain credentials');

/**
 * A published tier objective as submitted: share in (0, 1], at least one of the TPS/user threshold
 * (tokens/s, 0 < x ≤ 100,000) and the TTFT threshold (ms, 0 < x ≤ 600,000), and its source page.
 */
export const tierObjectiveInputSchema = z
  .object({
    share: z
      .number({ error: 'a fraction in (0, 1], e.g. 0.99' })
      .gt(0, 'a fraction in (0, 1], e.g. 0.99')
      .max(1, 'a fraction in (0, 1], e.g. 0.99')
      .meta({ description: 'Promised share of requests meeting the thresholds, a fraction in (0, 1] (0.99 = 99 %).' }),
    minOutputTokensPerSecond: z
      .number({ error: 'tokens/s, a number' })
      .gt(0, 'more than 0 tokens/s')
      .max(100_000, 'at most 100,000 tokens/s')
      .nullable()
      .default(null)
      .meta({ description: 'TPS/user a request must exceed, tokens/s (0 < x ≤ 100,000); null or absent: none.' }),
    maxTtftMs: z
      .number({ error: 'ms, a number' })
      .gt(0, 'more than 0 ms')
      .max(600_000, 'at most 600,000 ms')
      .nullable()
      .default(null)
      .meta({ description: 'TTFT a request must not exceed, ms (0 < x ≤ 600,000); null or absent: none.' }),
    sourceUrl: sourceUrl.meta({ description: 'The public http(s) page where the provider publishes the objective.' }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.minOutputTokensPerSecond === null && v.maxTtftMs === null)
      ctx.addIssue({ code: 'custom', path: ['minOutputTokensPerSecond'], message: 'give a TPS/user threshold, a TTFT threshold or both' });
  });

/**
 * The problem of sending `tier` on `protocol` (the sentence of lib/probe/service-tier
 * checkServiceTier), or null. Callers report it on field `serviceTier.value`.
 */
export function tierProtocolIssue(protocol: Protocol, tier: ServiceTierDeclaration | null | undefined): string | null {
  return tier ? checkServiceTier(protocol, tier) : null;
}

/** A declared tier as published. */
export const serviceTierSchema = z
  .object({
    parameter: z.enum(SERVICE_TIER_PARAMETER_NAMES).meta({
      description:
        'The documented request parameter sent with every probe of this endpoint: service_tier (OpenAI, xAI, Anthropic, Gemini API body), speed (Anthropic fast mode, with anthropic-beta: fast-mode-2026-02-01), serviceTier.type (Bedrock Converse body), X-Vertex-AI-LLM-Request-Type or X-Vertex-AI-LLM-Shared-Request-Type (Vertex AI headers).',
    }),
    value: z.string().meta({ description: 'The value sent, as the provider documents it (priority, flex, fast, …).' }),
  })
  .meta({ id: 'ServiceTier', description: 'The service tier this endpoint asks for (decision 262).' });

/** A published tier objective as published. */
export const tierObjectiveSchema = z
  .object({
    share: z.number().meta({ description: 'Share of requests the provider promises meet the thresholds, a fraction (0.99 = 99 %).' }),
    minOutputTokensPerSecond: z
      .number()
      .nullable()
      .meta({ description: 'TPS/user a request must exceed (strictly: exactly at the threshold does not meet it), tokens/s; null: no speed threshold.' }),
    maxTtftMs: z.number().nullable().meta({ description: 'TTFT a request must not exceed (≤), ms; null: no TTFT threshold.' }),
    sourceUrl: z.string().meta({ description: 'The page the provider publishes the objective on.' }),
  })
  .meta({ id: 'TierObjective', description: 'The provider’s published objective for this endpoint’s tier, as declared (decision 262).' });

/** Attainment of a tier objective over a window, as published. */
export const tierAttainmentSchema = z
  .object({
    share: z.number().meta({ description: 'Measurements that met the objective ÷ n, a fraction.' }),
    n: z.number().int().meta({ description: 'Rankable measurements in the window judged against the objective (measurements.tierObjectiveMet not null).' }),
    interval: z
      .object({ low: z.number().meta({ description: 'Lower bound, a fraction.' }), high: z.number().meta({ description: 'Upper bound, a fraction.' }) })
      .meta({ description: '95 % Wilson score interval of share; compare with tierObjective.share to see whether the objective is met, missed or undecided.' }),
  })
  .meta({ id: 'TierAttainment' });
