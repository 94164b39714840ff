/**
 * "Does this slug exist?" questions of the public API, so an unknown model, workload or provider
 * is a 404 naming the field instead of an empty answer (and no snapshot of a board that cannot
 * exist is stored). Listed models and providers only: an unlisted proposal is not public.
 *
 * The slug → id maps live in the one answer cache (./answer-cache, decision 215), dropped by every
 * data change; a miss re-reads them once before answering "unknown", so a model added a second ago
 * is found and the leaderboard's hot path stays one map lookup.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { models, providers, workloads } from '@/db/schema';
import { ANY_TIME, cachedAnswer, clearAnswer } from './answer-cache';

/** The catalog kinds a public query may name by slug. */
export type CatalogKind = 'model' | 'workload' | 'provider';

type SlugMaps = Record<CatalogKind, Map<string, number>>;
const KEY = 'catalog-slugs';

async function loadMaps(db: Db): Promise<SlugMaps> {
  const [m, w, p] = await Promise.all([
    db.select({ id: models.id, slug: models.slug }).from(models).where(eq(models.listed, true)),
    db.select({ id: workloads.id, slug: workloads.slug }).from(workloads),
    db.select({ id: providers.id, slug: providers.slug }).from(providers).where(eq(providers.listed, true)),
  ]);
  const toMap = (rows: Array<{ id: number; slug: string }>) => new Map(rows.map((r) => [r.slug, r.id]));
  return { model: toMap(m), workload: toMap(w), provider: toMap(p) };
}

/**
 * Resolves the given slugs to ids. Returns `{ ids }` with an id per given kind, or `{ unknown }`
 * naming the first kind (in the order given) whose slug is not in the catalog.
 */
export async function resolveCatalogSlugs(
  db: Db,
  slugs: Partial<Record<CatalogKind, string | undefined>>,
): Promise<{ ids: Partial<Record<CatalogKind, number>>; unknown: null } | { ids: null; unknown: { kind: CatalogKind; slug: string } }> {
  const given = (Object.entries(slugs) as Array<[CatalogKind, string | undefined]>).filter((e): e is [CatalogKind, string] => e[1] !== undefined);
  const attempt = (maps: SlugMaps) => {
    const ids: Partial<Record<CatalogKind, number>> = {};
    for (const [kind, slug] of given) {
      const id = maps[kind].get(slug);
      if (id === undefined) return { ids: null, unknown: { kind, slug } } as const;
      ids[kind] = id;
    }
    return { ids, unknown: null } as const;
  };
  const cached = cachedAnswer(db, KEY, ANY_TIME, () => loadMaps(db));
  const first = attempt(cached instanceof Promise ? await cached : cached);
  if (first.unknown === null || cached instanceof Promise) return first;
  // A miss on maps read earlier: read them again once (the slug may be a second old).
  clearAnswer(db, KEY);
  return attempt(await cachedAnswer(db, KEY, ANY_TIME, () => loadMaps(db)));
}
