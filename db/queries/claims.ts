import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { claims, models, providers } from '../schema';

/** Published claims (vendor/press figures), optionally of one model; largest value first. */
export async function listClaims(db: Db, params: { modelSlug?: string } = {}) {
  const q = db
    .select({
      id: claims.id,
      subject: claims.subject,
      provider: claims.providerName,
      providerSlug: providers.slug,
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
