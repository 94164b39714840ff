import { asc, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { datasetSeries, datasets } from '../schema';

const datasetColumns = {
  id: datasets.id,
  slug: datasets.slug,
  title: datasets.title,
  source: datasets.source,
  sourceUrl: datasets.sourceUrl,
  sourceCommit: datasets.sourceCommit,
  licence: datasets.licence,
  collectedOn: datasets.collectedOn,
  description: datasets.description,
  importedAt: datasets.importedAt,
};

/** Imported datasets with provenance. */
export async function listDatasets(db: Db) {
  return db.select(datasetColumns).from(datasets).orderBy(asc(datasets.slug));
}

/** One dataset with its series and their summaries, or null. */
export async function getDatasetWithSeries(db: Db, slug: string) {
  const [dataset] = await db.select(datasetColumns).from(datasets).where(eq(datasets.slug, slug)).limit(1);
  if (!dataset) return null;
  const series = await db
    .select({
      id: datasetSeries.id,
      slug: datasetSeries.slug,
      provider: datasetSeries.providerName,
      model: datasetSeries.modelName,
      summary: datasetSeries.summary,
    })
    .from(datasetSeries)
    .where(eq(datasetSeries.datasetId, dataset.id))
    .orderBy(asc(datasetSeries.slug));
  return { dataset, series };
}
