/**
 * Request schemas of the public API (/api/v1), grouped here so route handlers validate with them
 * and the OpenAPI document is generated from the same definitions.
 */
import { z } from 'zod';

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,80}$/, 'must be a lower-case slug');

/** Window lengths accepted by the leaderboard: hours, e.g. "72h", or days, e.g. "7d". */
export const windowSchema = z
  .string()
  .regex(/^\d{1,4}[hd]$/, 'must look like 72h or 7d')
  .transform((v) => (v.endsWith('d') ? Number(v.slice(0, -1)) * 24 : Number(v.slice(0, -1))))
  .refine((h) => h >= 1 && h <= 24 * 366, 'must be between 1h and 366d');

/** GET /api/v1/leaderboard query. */
export const leaderboardQuerySchema = z.object({
  model: slug.default('llama-4-maverick'),
  workload: slug.default('prose-1k'),
  window: z.string().default('72h').pipe(windowSchema),
  region: slug.optional(),
  basis: z.enum(['reported', 'o200k']).default('reported'),
  at: z.iso.datetime({ offset: true }).optional(),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

/** Path parameter: a positive integer id. */
export const idParamSchema = z.coerce.number().int().positive().max(2_147_483_647);

/** GET /api/v1/endpoints/{id}/measurements query (cursor pagination, newest first). */
export const measurementsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.coerce.number().int().positive().optional(),
  timeline: z.enum(['0', '1', 'true', 'false']).default('1').transform((v) => v === '1' || v === 'true'),
});

/** GET /api/v1/endpoints/{id}/history query. */
export const historyQuerySchema = z.object({
  workload: slug.default('prose-1k'),
  granularity: z.enum(['hour', 'day']).default('day'),
  range: z.enum(['24h', '7d', '30d', '90d', 'all']).default('30d'),
  region: slug.optional(),
});

/** GET /api/v1/endpoints query. */
export const endpointsQuerySchema = z.object({ model: slug.optional(), provider: slug.optional() });

/** GET /api/v1/claims query. */
export const claimsQuerySchema = z.object({ model: slug.optional() });
