/**
 * Request schemas of the public API (/api/v1), grouped here so route handlers validate with them
 * and the OpenAPI document (lib/api/openapi.ts) is generated from the same definitions.
 * Descriptions and examples in `.meta()` end up in the document and on /api-docs.
 */
import { z } from 'zod';

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,80}$/, 'must be a lower-case slug');

/** Window lengths accepted by the leaderboard: hours, e.g. "72h", or days, e.g. "7d". */
export const windowSchema = z
  .string()
  .regex(/^\d{1,4}[hd]$/, 'must look like 72h or 7d')
  .transform((v) => (v.endsWith('d') ? Number(v.slice(0, -1)) * 24 : Number(v.slice(0, -1))))
  .refine((h) => h >= 1 && h <= 24 * 366, 'must be between 1h and 366d');

const basisSchema = z.enum(['reported', 'o200k']).default('reported').meta({
  description: 'Token basis of output speed: provider-reported completion_tokens, or the o200k_base count of the received text (compares providers with different tokenizers fairly).',
  example: 'reported',
});

const regionSchema = slug.optional().meta({ description: 'Only probes from this worker region (default: all regions).', example: 'local' });

/** GET /api/v1/leaderboard query. */
export const leaderboardQuerySchema = z.object({
  model: slug.default('llama-4-maverick').meta({ description: 'Model slug (see /api/v1/models).', example: 'llama-4-maverick' }),
  workload: slug.default('prose-1k').meta({ description: 'Workload slug (see /api/v1/models → workloads).', example: 'prose-1k' }),
  window: z
    .string()
    .default('72h')
    .pipe(windowSchema)
    .meta({ description: 'Window length: hours ("72h") or days ("7d"), 1h–366d. The window is the given number of whole UTC hours before the as-of hour plus that hour up to the as-of instant.', example: '72h' }),
  region: regionSchema,
  basis: basisSchema,
  at: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'ISO 8601 instant, not in the future: the board as it stood then (default: the current minute).', example: '2026-11-28T12:00:00Z' }),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

/** Path parameter: a positive integer id. */
export const idParamSchema = z.coerce.number().int().positive().max(2_147_483_647);

/** Path parameters {id} of endpoint routes (OpenAPI). */
export const endpointIdPathSchema = z.object({ id: idParamSchema.meta({ description: 'Endpoint id (see /api/v1/endpoints).', example: 1 }) });

/** Path parameter {id} of a snapshot. */
export const snapshotIdSchema = z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, 'must be a snapshot id');
export const snapshotIdPathSchema = z.object({ id: snapshotIdSchema.meta({ description: 'snapshotId from a leaderboard answer.', example: 'yJ3p9kq0Xb1cVtP2mWnE4A' }) });

/** Path parameter {slug} of a dataset. */
export const datasetSlugSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,80}$/, 'must be a dataset slug');
export const datasetSlugPathSchema = z.object({ slug: datasetSlugSchema.meta({ description: 'Dataset slug (see /api/v1/datasets).', example: 'llmperf-leaderboard-2024-01' }) });

/** GET /api/v1/endpoints/{id}/measurements query (cursor pagination, newest first). */
export const measurementsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50).meta({ description: 'Page size, 1–500.', example: 50 }),
  cursor: z.coerce.number().int().positive().optional().meta({ description: 'nextCursor of the previous page (measurements with a smaller id follow).' }),
  timeline: z
    .enum(['0', '1', 'true', 'false'])
    .default('1')
    .transform((v) => v === '1' || v === 'true')
    .meta({ description: 'Include each measurement’s timeline (1, default) or omit it (0).', example: '1' }),
});

/** History ranges and their length in hours. */
export const HISTORY_RANGE_HOURS = { '24h': 24, '7d': 168, '30d': 720, '90d': 2160, '365d': 8784, all: 24 * 365 * 20 } as const;
const rangeSchema = z.enum(['24h', '7d', '30d', '90d', '365d', 'all']);

/** GET /api/v1/endpoints/{id}/history query. */
export const historyQuerySchema = z.object({
  workload: slug.default('prose-1k').meta({ description: 'Workload slug.', example: 'prose-1k' }),
  granularity: z.enum(['hour', 'day']).default('day').meta({ description: 'Bucket size of the series.', example: 'day' }),
  range: rangeSchema.default('30d').meta({ description: 'How far back from now.', example: '30d' }),
  region: regionSchema,
  basis: basisSchema,
});

/** GET /api/v1/history query (per-model daily history). */
export const modelHistoryQuerySchema = z.object({
  model: slug.default('llama-4-maverick').meta({ description: 'Model slug.', example: 'llama-4-maverick' }),
  workload: slug.default('prose-1k').meta({ description: 'Workload slug.', example: 'prose-1k' }),
  range: rangeSchema.default('90d').meta({ description: 'How far back from now.', example: '90d' }),
  region: regionSchema,
  basis: basisSchema,
});

/** GET /api/v1/endpoints query. */
export const endpointsQuerySchema = z.object({
  model: slug.optional().meta({ description: 'Only endpoints serving this model.', example: 'llama-4-maverick' }),
  provider: slug.optional().meta({ description: 'Only endpoints of this provider.', example: 'groq' }),
});

/** GET /api/v1/claims query. */
export const claimsQuerySchema = z.object({ model: slug.optional().meta({ description: 'Only claims about this model.', example: 'llama-4-maverick' }) });

/** Routes without query parameters (unknown parameters are rejected). */
export const emptyQuerySchema = z.object({});
