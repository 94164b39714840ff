import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { claims, models, providers } from '../schema';

/**
 * Public endpoints whose declared system AND model are the claim's (the claim belongs beside them
 * only: a provider's API serves many models, and a Maverick record says nothing of its gpt-oss
 * endpoint), ids ascending; empty when none is. A claim without a model matches by system alone. Written with the table name spelled out: an interpolated column
 * inside a subquery renders unqualified and would bind to the subquery's own table.
 */
const endpointIdsOfSystem = sql<
  number[]
>`coalesce((select array_agg(e.id order by e.id) from endpoints e where e.system = "claims"."system" and (e.model_id = "claims"."model_id" or "claims"."model_id" is null) and e.status in ('active','inactive','paused','retired')), '{}'::int[])`;

/**
 * Published claims (vendor/press figures), optionally of one model; per metric, largest value
 * first. `system` is the serving system the claim is about; `endpointIds` the catalog endpoints
 * that are that system (empty when none is: a claim about a system not measured here).
 */
export async function listClaims(db: Db, params: { modelSlug?: string } = {}) {
  const q = db
    .select({
      id: claims.id,
      subject: claims.subject,
      provider: claims.providerName,
      providerSlug: providers.slug,
      system: claims.system,
      endpointIds: endpointIdsOfSystem,
      model: claims.modelName,
      modelSlug: models.slug,
      metric: claims.metric,
      value: claims.value,
      unit: claims.unit,
      bound: claims.bound,
      measuredBy: claims.measuredBy,
      claimDate: claims.claimDate,
      sourceTitle: claims.sourceTitle,
      sourcePublisher: claims.sourcePublisher,
      sourceUrl: claims.sourceUrl,
      note: claims.note,
    })
    .from(claims)
    .leftJoin(providers, eq(providers.id, claims.providerId))
    .leftJoin(models, eq(models.id, claims.modelId));
  const rows = await (params.modelSlug ? q.where(eq(models.slug, params.modelSlug)) : q).orderBy(asc(claims.metric), desc(claims.value));
  return rows;
}
