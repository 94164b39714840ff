import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import { endpoints, models, providers, workloads } from '../schema';
import { blendedUsdPerMTokensSql, endpointDeploymentColumns, endpointNameColumns, providerColumns } from './endpoint-columns';
import { workloadColumns } from './workloads';

/** Public endpoint columns (never the API key or its variable's value). */
export const publicEndpointColumns = {
  ...endpointNameColumns,
  providerKind: providers.kind,
  protocol: endpoints.protocol,
  baseUrl: endpoints.baseUrl,
  apiModelId: endpoints.apiModelId,
  apiKeyEnv: endpoints.apiKeyEnv,
  ...endpointDeploymentColumns,
  draftLength: endpoints.draftLength,
  region: endpoints.region,
  isCalibration: endpoints.isCalibration,
  calibrationTps: endpoints.calibrationTps,
  calibrationTtftMs: endpoints.calibrationTtftMs,
  status: endpoints.status,
  createdAt: endpoints.createdAt,
  pricing: endpoints.pricing,
  blendedUsdPerMTokens: blendedUsdPerMTokensSql,
  contextWindowTokens: endpoints.contextWindowTokens,
  serviceTier: endpoints.serviceTier,
  tierObjective: endpoints.tierObjective,
};

/**
 * Public endpoints (active, inactive, paused: the statuses every list shows) among the joined
 * endpoints rows, for a query grouped by model or provider. (A correlated subquery written with
 * `${models.id}` rendered as an unqualified "id", which bound to the subquery's own endpoints.id:
 * every count was wrong.)
 */
const publicEndpointCount = sql<number>`(count(${endpoints.id}) filter (where ${endpoints.status} in ('active','inactive','paused','retired')))::int`;

/**
 * The listed rows of `table` (models or providers) as `columns` plus `endpointCount` (their public
 * endpoints, joined through `endpointKey`), ordered by name.
 */
function listListedWithEndpointCounts<C extends SelectedFields>(
  db: Db,
  table: typeof models | typeof providers,
  columns: C,
  endpointKey: typeof endpoints.modelId | typeof endpoints.providerId,
) {
  return db
    .select({ ...columns, endpointCount: publicEndpointCount })
    .from(table)
    .leftJoin(endpoints, eq(endpointKey, table.id))
    .where(eq(table.listed, true))
    .groupBy(table.id)
    .orderBy(asc(table.name));
}

/** Models with their endpoint counts, ordered by name. */
export async function listModels(db: Db) {
  const columns = { id: models.id, slug: models.slug, name: models.name, family: models.family, description: models.description };
  return listListedWithEndpointCounts(db, models, columns, endpoints.modelId);
}

/** Workloads (slug, category, input target, output budget), scheduled ones first. */
export async function listWorkloads(db: Db) {
  return db
    .select({ ...workloadColumns, inputTokensTarget: workloads.inputTokensTarget, scheduled: workloads.scheduled })
    .from(workloads)
    .orderBy(sql`${workloads.scheduled} desc`, asc(workloads.inputTokensTarget), asc(workloads.slug));
}

/** Providers with endpoint counts. */
export async function listProviders(db: Db) {
  return listListedWithEndpointCounts(db, providers, providerColumns, endpoints.providerId);
}

/** Public (listed) endpoints, optionally of one model or provider. */
export async function listEndpoints(db: Db, params: { modelSlug?: string; providerSlug?: string } = {}) {
  const filters = [inArray(endpoints.status, ['active', 'inactive', 'paused', 'retired'] as const)];
  if (params.modelSlug) filters.push(eq(models.slug, params.modelSlug));
  if (params.providerSlug) filters.push(eq(providers.slug, params.providerSlug));
  return db
    .select(publicEndpointColumns)
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(and(...filters))
    .orderBy(asc(providers.name), asc(endpoints.slug));
}

/** One public endpoint by id, or null (pending/rejected submissions are not public). */
export async function getPublicEndpoint(db: Db, id: number) {
  const rows = await db
    .select(publicEndpointColumns)
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(and(eq(endpoints.id, id), inArray(endpoints.status, ['active', 'inactive', 'paused', 'retired'] as const)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Listed models with what the home page's comparison filters on: creator, open-weight or
 * proprietary (`weights`, null when undeclared), weights identity, retirement, and listed endpoint
 * counts (all, and active = probed now). Models served by a calibration endpoint (our reference
 * stream) are excluded (table names spelled out in the subquery, see publicEndpointCount). Ordered by name.
 */
export async function listComparedModels(db: Db) {
  return db
    .select({
      id: models.id,
      slug: models.slug,
      name: models.name,
      family: models.family,
      creator: models.creator,
      weights: models.weights,
      weightsUrl: models.weightsUrl,
      retiredAt: models.retiredAt,
      endpointCount: publicEndpointCount,
      activeEndpointCount: sql<number>`(count(${endpoints.id}) filter (where ${endpoints.status} = 'active'))::int`,
    })
    .from(models)
    .leftJoin(endpoints, eq(endpoints.modelId, models.id))
    .where(and(eq(models.listed, true), sql`not exists (select 1 from endpoints c where c.model_id = "models"."id" and c.is_calibration)`))
    .groupBy(models.id)
    .orderBy(asc(models.name));
}
