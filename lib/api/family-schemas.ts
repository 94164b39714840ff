/**
 * GET /api/v1/endpoints/{id}/families[.csv] (issue 25): the workload families' figures of one
 * endpoint over a window, one row per figure (JSON items and CSV rows are the same rows, zod →
 * OpenAPI): the prompt cache (TTFT cold and warm, hit share, cached tokens), the structured-output
 * penalty, the agent turns (per turn TTFT, TPS/user, cached tokens, hit share, cached share of the
 * prompt) and the cache
 * lifetime (hit share per gap and the longest gap still hit). Every value is read from the
 * endpoint's leaderboard entries of the family's workloads (the one statistics engine,
 * server/workload-families.ts), so it equals what the board and the endpoint page show.
 */
import { z } from 'zod';
import { trailingWindowQuerySchema } from './schemas';

export const familiesQuerySchema = trailingWindowQuerySchema;

/** The figures a row can carry. */
export const FAMILY_FIGURES = [
  'ttft_ms',
  'output_tokens_per_second',
  'cached_input_tokens',
  'cache_hit_share',
  'cached_input_share',
  'speed_penalty',
  'warm_over_cold_ttft',
  'cache_lifetime_minutes',
] as const;

export const familyFigureSchema = z
  .object({
    family: z
      .enum(['prompt_cache', 'structured_output', 'agent_turns', 'cache_lifetime'])
      .meta({ description: 'The workload family (issue 25; decisions 260, 261, 267, 268).' }),
    figure: z.enum(FAMILY_FIGURES).meta({
      description:
        'ttft_ms and output_tokens_per_second: the window median (type 7) of the workload, P5–P95 as low–high; cached_input_tokens: median cached input tokens, P5–P95; cache_hit_share: share of measurements reporting a cache count that reported more than 0, 95 % Wilson interval; cached_input_share: median over the measurements reporting both counts of cached ÷ input tokens of the prompt (a fraction; 0 input tokens or an unknown count gives none), P5–P95, decision 291; speed_penalty: median TPS/user of the structured workload ÷ that of its free-text workload, interval from both medians’ 95 % intervals (decision 261); warm_over_cold_ttft: median TTFT warm ÷ cold (no interval); cache_lifetime_minutes: the longest gap still hit (low) and the next gap that missed (high, null when none did), decision 268.',
    }),
    workload: z.string().nullable().meta({
      description: 'Workload slug the figure is read from (its leaderboard entry); null for a figure derived from several (warm ÷ cold, the lifetime).',
    }),
    turn: z.number().int().nullable().meta({ description: 'Agent turn (1-based); null outside agent_turns.' }),
    gapMinutes: z.number().nullable().meta({ description: 'Cache-lifetime check: minutes since the series’ previous request; null otherwise.' }),
    value: z.number().nullable().meta({ description: 'The figure, in `unit`; null when the window has none.' }),
    low: z.number().nullable().meta({ description: 'Lower end (see figure): P5, or the interval’s low; null when none.' }),
    high: z.number().nullable().meta({ description: 'Upper end (see figure): P95, or the interval’s high; null when none.' }),
    n: z.number().int().nullable().meta({
      description:
        'Measurements behind the figure: rankable samples (TTFT and speed medians), measurements reporting a cache count (hit shares and the cached-tokens median), measurements reporting both their cached and their input tokens (cached_input_share); null for ratios.',
    }),
    unit: z.enum(['ms', 'tokens/s', 'tokens', 'fraction', 'ratio', 'minutes']).meta({ description: 'Unit of value, low and high.' }),
  })
  .meta({ id: 'FamilyFigure', description: 'One figure of one workload family of one endpoint over the window.' });

export const familiesResponseSchema = z
  .object({
    endpointId: z.number().int().meta({ description: 'Endpoint id.' }),
    window: z.string().meta({ description: 'Window length, e.g. "72h".' }),
    windowStart: z.string().nullable().meta({ format: 'date-time', description: 'Start of the window (UTC, inclusive), as on the leaderboard.' }),
    asOf: z.string().nullable().meta({ format: 'date-time', description: 'End of the window (UTC).' }),
    items: z.array(familyFigureSchema).meta({ description: 'Every figure the window has (figures without measurements are left out).' }),
  })
  .meta({ id: 'EndpointFamilies' });
