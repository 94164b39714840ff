/**
 * Request schemas of the public API (/api/v1), grouped here so route handlers validate with them
 * and the OpenAPI document (lib/api/openapi.ts) is generated from the same definitions.
 * Descriptions and examples in `.meta()` end up in the document and on /api-docs.
 */
import { z } from 'zod';
import { DEFAULT_SPEED_BASIS } from '@/lib/stats/window-stats';

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,80}$/, 'must be a lower-case slug');

/** Earliest `at=` accepted: before this no service could have measured anything (decision 076). */
const EARLIEST_AT = '2000-01-01T00:00:00Z';

/** Window lengths: hours, e.g. "72h", or days, e.g. "7d" → hours, at most `maxHours`. */
export function windowHoursSchema(maxHours: number) {
  const maxText = maxHours % 24 === 0 ? `${maxHours / 24}d` : `${maxHours}h`;
  return z
    .string()
    .regex(/^\d{1,5}[hd]$/, 'must look like 72h or 7d')
    .transform((v) => (v.endsWith('d') ? Number(v.slice(0, -1)) * 24 : Number(v.slice(0, -1))))
    .refine((h) => h >= 1 && h <= maxHours, `must be between 1h and ${maxText}`);
}

/**
 * `at=`: an ISO 8601 instant with offset, on or after 2000-01-01. (Whether it lies in the future
 * depends on the clock, so the route checks that with its `now`.)
 */
const atSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 instant such as 2026-11-28T12:00:00Z' })
  .refine((v) => Date.parse(v) >= Date.parse(EARLIEST_AT), `must be on or after ${EARLIEST_AT}`);

/** One `window` parameter for every windowed route (`range` was its old name on history routes). */
const windowParam = (fallback: string, maxHours: number, description: string) =>
  z.string().default(fallback).pipe(windowHoursSchema(maxHours)).meta({ description, example: fallback });
const atParam = (what: string) =>
  atSchema.optional().meta({
    description: `ISO 8601 instant, not in the future and not before 2000-01-01: ${what} as it stood then (default: now, to the minute).`,
    example: '2026-11-28T12:00:00Z',
  });

const basisSchema = z.enum(['reported', 'o200k']).default(DEFAULT_SPEED_BASIS).meta({
  description:
    'Token basis of output speed: o200k (the default; the o200k_base count of the received text, so a provider cannot gain by over-reporting and tokenizers compare fairly), or reported (the provider’s completion_tokens).',
  example: 'o200k',
});

/** The query of the one-endpoint reads over a window ending now (token honesty, families): `window`, default 72h, 1h–366d. */
export const trailingWindowQuerySchema = z.object({
  window: windowParam('72h', 24 * 366, 'Window length ending now, hours ("72h") or days ("7d"), 1h–366d, as on the leaderboard.'),
});

const regionSchema = slug.optional().meta({ description: 'Only probes from this worker region (default: all regions).', example: 'local' });

/** GET /api/v1/leaderboard query. */
export const leaderboardQuerySchema = z.object({
  model: slug.default('llama-4-maverick').meta({ description: 'Model slug (see /api/v1/models); unknown → 404.', example: 'llama-4-maverick' }),
  workload: slug.default('prose-1k').meta({ description: 'Workload slug (see /api/v1/models → workloads); unknown → 404.', example: 'prose-1k' }),
  window: windowParam(
    '72h',
    24 * 366,
    'Window length, hours ("72h") or days ("7d"), 1h–366d: the given number of whole UTC hours before the as-of hour plus that hour up to the as-of instant.',
  ),
  region: regionSchema,
  basis: basisSchema,
  at: atParam('the board'),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

/**
 * GET /api/v1/model-comparison: every model's fastest endpoint for one workload × window × basis,
 * live (one leaderboard answer per model; no `at`, so the cost is bounded by the precomputed answers).
 * Filters pick which endpoints may stand for a model (unknown price or context never passes a bound).
 */
export const modelComparisonQuerySchema = z.object({
  workload: leaderboardQuerySchema.shape.workload,
  window: windowParam('72h', 24 * 366, 'Window length, hours ("72h") or days ("7d"), as on the leaderboard.'),
  region: regionSchema,
  basis: basisSchema,
  weights: z.enum(['open', 'proprietary']).optional().meta({ description: 'Only open-weight or only proprietary models.' }),
  provider: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,80}(,[a-z0-9][a-z0-9-]{0,80}){0,49}$/, 'must be provider slugs separated by commas')
    .optional()
    .meta({ description: 'Only endpoints of these providers (comma-separated slugs, see /api/v1/providers).', example: 'groq,cerebras' }),
  maxPrice: z.coerce.number().nonnegative().max(10_000).optional().meta({
    description: 'Blended price ceiling, USD per million tokens (3:1 input:output, declared); an endpoint without a declared price never passes.',
    example: 1,
  }),
  minContext: z.coerce
    .number()
    .int()
    .positive()
    .max(100_000_000)
    .optional()
    .meta({ description: 'Minimum declared context window, tokens; an endpoint without a declared context window never passes.', example: 131072 }),
  retired: z.enum(['include', 'exclude']).default('exclude').meta({ description: 'Whether retired models are listed.' }),
});
export type ModelComparisonQuery = z.infer<typeof modelComparisonQuerySchema>;

/** Path parameter: a positive integer id. */
export const idParamSchema = z.coerce.number().int().positive().max(2_147_483_647);

/** Path parameters {id} of endpoint routes (OpenAPI). */
export const endpointIdPathSchema = z.object({ id: idParamSchema.meta({ description: 'Endpoint id (see /api/v1/endpoints).', example: 1 }) });

/** Path parameter {id} of a snapshot. */
export const snapshotIdSchema = z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, 'must be a snapshot id');
export const snapshotIdPathSchema = z.object({
  id: snapshotIdSchema.meta({ description: 'snapshotId from a leaderboard answer.', example: 'yJ3p9kq0Xb1cVtP2mWnE4A' }),
});

/** Path parameter {slug} of a dataset. */
export const datasetSlugSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,80}$/, 'must be a dataset slug');
export const datasetSlugPathSchema = z.object({
  slug: datasetSlugSchema.meta({ description: 'Dataset slug (see /api/v1/datasets).', example: 'llmperf-leaderboard-2024-01' }),
});

/** Opaque keyset cursor of a measurement page: `<measured_at in µs since epoch>.<id>`. */
/** Largest cursor instant: 9999-12-31T23:59:59.999999Z in µs (what the database's timestamps hold and more). */
const MAX_CURSOR_MICROS = 253_402_300_799_999_999n;
const measurementCursorSchema = z
  .string()
  .max(40, 'must be the nextCursor of a previous page')
  .regex(/^\d{1,19}\.\d{1,19}$/, 'must be the nextCursor of a previous page')
  // Digits that parse but overflow the database's bigint/timestamp would be a 500 (issue 19 #10).
  .refine((v) => {
    if (!/^\d{1,19}\.\d{1,19}$/.test(v)) return true; // the regex above reports it
    const [micros, id] = v.split('.');
    return BigInt(micros!) <= MAX_CURSOR_MICROS && Number(id) >= 1 && Number(id) <= Number.MAX_SAFE_INTEGER;
  }, 'must be the nextCursor of a previous page (out of range)')
  .transform((v) => {
    const [micros, id] = v.split('.');
    return { measuredAtMicros: micros!, id: Number(id) };
  });

/** GET /api/v1/endpoints/{id}/measurements query (keyset pagination, newest first). */
export const measurementsQuerySchema = z.object({
  workload: slug
    .optional()
    .meta({ description: 'Only measurements of this workload (slug, see /api/v1/models → workloads); unknown → 404.', example: 'prose-1k' }),
  since: atSchema.optional().meta({
    description: 'Only measurements with measuredAt ≥ this ISO 8601 instant (e.g. a leaderboard answer’s windowStart).',
    example: '2026-11-25T12:00:00Z',
  }),
  until: atSchema
    .optional()
    .meta({ description: 'Only measurements with measuredAt ≤ this ISO 8601 instant (e.g. a leaderboard answer’s asOf).', example: '2026-11-28T12:00:00Z' }),
  outcome: z.enum(['success', 'error']).optional().meta({ description: 'Only successful probes or only failures.', example: 'success' }),
  limit: z.coerce.number().int().min(1).max(5000).default(100).meta({ description: 'Page size, 1–5000 measurements (default 100).', example: 100 }),
  cursor: measurementCursorSchema.optional().meta({ description: 'nextCursor of the previous page (older measurements follow; opaque).' }),
  timeline: z
    .enum(['0', '1', 'true', 'false'])
    .default('0')
    .transform((v) => v === '1' || v === 'true')
    .meta({
      description:
        'Include each measurement’s decoded timeline (1) or not (0, default); CSV never has timelines. One measurement with its timeline: /api/v1/measurements/{id}.',
      example: '0',
    }),
});

/** Path parameter {id} of a measurement. */
export const measurementIdPathSchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).meta({ description: 'Measurement id (from a measurements page).', example: 1 }),
});

/** Longest history window: 20 years. */
export const HISTORY_MAX_HOURS = 24 * 365 * 20;
/**
 * Deprecated `range=` values of the history routes (decision 076) and the `window` each means;
 * `range` is still accepted as an alias of `window`, never both at once.
 */
export const DEPRECATED_HISTORY_RANGES = { '24h': '24h', '7d': '7d', '30d': '30d', '90d': '90d', '365d': '365d', all: `${HISTORY_MAX_HOURS}h` } as const;
const rangeAlias = z
  .enum(Object.keys(DEPRECATED_HISTORY_RANGES) as [keyof typeof DEPRECATED_HISTORY_RANGES])
  .optional()
  .meta({ description: 'Deprecated alias of window (24h, 7d, 30d, 90d, 365d or all); send window instead.', deprecated: true });

/** GET /api/v1/endpoints/{id}/history query. */
export const historyQuerySchema = z.object({
  workload: slug.default('prose-1k').meta({ description: 'Workload slug; unknown → 404.', example: 'prose-1k' }),
  granularity: z.enum(['hour', 'day']).default('day').meta({ description: 'Bucket size of the series: UTC hours or UTC days.', example: 'day' }),
  window: windowParam('30d', HISTORY_MAX_HOURS, 'How far back from the as-of instant: hours ("72h") or days ("30d"), 1h–7300d.'),
  range: rangeAlias,
  at: atParam('the history'),
  region: regionSchema,
  basis: basisSchema,
});

/** GET /api/v1/history query (per-model daily history). */
export const modelHistoryQuerySchema = z.object({
  model: slug.default('llama-4-maverick').meta({ description: 'Model slug; unknown → 404.', example: 'llama-4-maverick' }),
  workload: slug.default('prose-1k').meta({ description: 'Workload slug; unknown → 404.', example: 'prose-1k' }),
  window: windowParam('90d', HISTORY_MAX_HOURS, 'How far back from the as-of instant: hours ("72h") or days ("90d"), 1h–7300d.'),
  range: rangeAlias,
  at: atParam('the history'),
  region: regionSchema,
  basis: basisSchema,
});

/** GET /api/v1/endpoints query. */
export const endpointsQuerySchema = z.object({
  model: slug.optional().meta({ description: 'Only endpoints serving this model (slug); unknown → 404.', example: 'llama-4-maverick' }),
  provider: slug.optional().meta({ description: 'Only endpoints of this provider (slug); unknown → 404.', example: 'groq' }),
});

/** GET /api/v1/claims query. */
export const claimsQuerySchema = z.object({
  model: slug.optional().meta({ description: 'Only claims about this model (slug); unknown → 404.', example: 'llama-4-maverick' }),
});

/** Routes without query parameters (unknown parameters are rejected). */
export const emptyQuerySchema = z.object({});
